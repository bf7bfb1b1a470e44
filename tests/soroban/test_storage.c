/*
 * test_storage.c — temporary and persistent contract storage: results,
 * TTLs, errors, and exact charges.
 *
 * The charge numbers are worked out from the reference (storage.rs in
 * recording mode, metered_map.rs, comparison.rs; see host_storage.c) and
 * checked against the reference's trace test__storage__test_persistent_storage
 * .json, where the contract's storage is the state the test sets up here:
 * the contract's code entry and instance entry already in the storage map
 * and footprint.  The trace's deltas around a host call include the guest
 * fuel flushed at the call, so:
 *   step 28->30 has_contract_data(key_1, Persistent) -> False:
 *     mem 479 exactly; cpu 4851 = 3547 (host) + 1304 (guest fuel)
 *   step 46->48 put_contract_data(key_1, U64(1234), Persistent):
 *     mem 831 exactly; cpu 8275 = 5687 (host) + 2588 (guest fuel)
 *   step 64->66 has_contract_data(key_1, Persistent) -> True:
 *     mem 168 exactly; cpu 3531 = 2227 (host) + 1304 (guest fuel)
 * The two has_contract_data calls run the same guest path (same function,
 * same key), and both leave exactly 1304 for it: the host parts agree with
 * the reference to the unit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ref_wasm.h"

#include "soroban/core/host_private.h"
#include "host_fixture.h"

static const uint8_t contract[32] = { 0xc0, 0xff, 0xee };

static int setup(void **state) {
  scp_host_opts o = { .max_entry_ttl = 6312000 };
  if (fixture_open(state, UINT64_MAX, UINT64_MAX, &o, 8)) return -1;
  fixture *f = *state;
  if (scp_host_push_contract_frame(f->h, contract)) return -1;
  /* the contract's code and instance entries, as after create_contract */
  scp_lkey code = { .type = SCP_LK_CONTRACT_CODE, .id = { 0xaa } };
  static uint8_t inst_key[4] = { 0, 0, 0, 20 };   /* ScVal::LedgerKeyContractInstance */
  scp_lkey inst = { .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_PERSISTENT, .key = inst_key,
                    .keylen = 4 };
  memcpy(inst.id, contract, 32);
  static const uint8_t val[4] = { 0, 0, 0, 1 };
  if (scp_storage_seed(f->h, &code, val, 4, 4095, true)) return -1;
  if (scp_storage_seed(f->h, &inst, val, 4, 4095, true)) return -1;
  return 0;
}


static void test_trace_charges(void **state) {
  fixture *f = *state;
  uint64_t ret, cpu, mem, a[3] = { sym("key_1"), 1 /* Persistent */ };
  assert_int_equal(fixture_call(f, "has_contract_data", a, &ret, &cpu, &mem), SCP_OK);
  assert_int_equal(ret, SCP_VAL_FALSE);
  assert_int_equal(mem, 479);
  assert_int_equal(cpu, 3547);

  uint64_t p[3] = { sym("key_1"), scp_val_small_u(1234, SCP_TAG_U64_SMALL), 1 };
  assert_int_equal(fixture_call(f, "put_contract_data", p, &ret, &cpu, &mem), SCP_OK);
  assert_int_equal(mem, 831);
  assert_int_equal(cpu, 5687);

  assert_int_equal(fixture_call(f, "has_contract_data", a, &ret, &cpu, &mem), SCP_OK);
  assert_int_equal(ret, SCP_VAL_TRUE);
  assert_int_equal(mem, 168);
  assert_int_equal(cpu, 2227);

  assert_int_equal(fixture_call(f, "get_contract_data", a, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, scp_val_small_u(1234, SCP_TAG_U64_SMALL));

  scp_storage_stats st;
  scp_host_storage_stats(f->h, &st);
  assert_int_equal(st.reads, 3);     /* has, has, get (put counts as a write) */
  assert_int_equal(st.writes, 1);
  /* key_1's image: type 4 + length 4 + "key_1" padded to 8 = 16; U64: 12 */
  assert_int_equal(st.bytes_written, 16 + 12);
  assert_int_equal(st.bytes_read, 16 + (16 + 12) + (16 + 12));
}

static void test_temporary_and_persistent_are_distinct(void **state) {
  fixture *f = *state;
  uint64_t ret;
  uint64_t put_t[3] = { sym("k"), scp_val_u32(7), 0 };
  assert_int_equal(fixture_call(f, "put_contract_data", put_t, &ret, NULL, NULL), SCP_OK);
  uint64_t get_p[2] = { sym("k"), 1 }, get_t[2] = { sym("k"), 0 };
  assert_int_equal(fixture_call(f, "get_contract_data", get_p, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_MISSING_VALUE));
  assert_int_equal(fixture_call(f, "get_contract_data", get_t, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, scp_val_u32(7));
  /* overwrite, then delete */
  put_t[1] = scp_val_u32(9);
  assert_int_equal(fixture_call(f, "put_contract_data", put_t, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(fixture_call(f, "get_contract_data", get_t, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, scp_val_u32(9));
  assert_int_equal(fixture_call(f, "del_contract_data", get_t, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(fixture_call(f, "has_contract_data", get_t, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, SCP_VAL_FALSE);
  /* object keys and values round-trip through their XDR images */
  uint64_t bytes;
  static const uint8_t raw[5] = { 1, 2, 3, 4, 5 };
  assert_int_equal(scp_host_memobj_new_from_slice(f->h, SCP_TAG_BYTES_OBJ, raw, 5, &bytes), SCP_OK);
  uint64_t rel;
  assert_int_equal(scp_host_to_relative(f->h, bytes, &rel), SCP_OK);
  uint64_t put_b[3] = { rel, rel, 1 };
  assert_int_equal(fixture_call(f, "put_contract_data", put_b, &ret, NULL, NULL), SCP_OK);
  uint64_t get_b[2] = { rel, 1 };
  assert_int_equal(fixture_call(f, "get_contract_data", get_b, &ret, NULL, NULL), SCP_OK);
  uint64_t abs;
  assert_int_equal(scp_host_to_absolute(f->h, ret, &abs), SCP_OK);
  int ord;
  assert_int_equal(scp_host_compare(f->h, abs, bytes, &ord), SCP_OK);
  assert_int_equal(ord, 0);
}

static void test_ttl(void **state) {
  fixture *f = *state;
  uint64_t ret;
  uint64_t put_p[3] = { sym("key_1"), scp_val_u32(1), 1 }, put_t[3] = { sym("key_1"), scp_val_u32(1), 0 };
  assert_int_equal(fixture_call(f, "put_contract_data", put_p, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(fixture_call(f, "put_contract_data", put_t, &ret, NULL, NULL), SCP_OK);
  /* as the reference's test_persistent_storage / test_temp_storage: max TTL
   * 6312000 at sequence 0 gives max live-until 6311999 */
  uint64_t ext[4] = { sym("key_1"), 1, scp_val_u32(1), scp_val_u32(6311999) };
  assert_int_equal(fixture_call(f, "extend_contract_data_ttl", ext, &ret, NULL, NULL), SCP_OK);
  ext[3] = scp_val_u32(6312000);   /* persistent: clamped */
  assert_int_equal(fixture_call(f, "extend_contract_data_ttl", ext, &ret, NULL, NULL), SCP_OK);
  ext[1] = 0;                      /* temporary: refused */
  assert_int_equal(fixture_call(f, "extend_contract_data_ttl", ext, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_INVALID_ACTION));
  ext[3] = scp_val_u32(6311999);
  assert_int_equal(fixture_call(f, "extend_contract_data_ttl", ext, &ret, NULL, NULL), SCP_OK);
  ext[2] = scp_val_u32(7);         /* threshold above extend_to */
  ext[3] = scp_val_u32(6);
  assert_int_equal(fixture_call(f, "extend_contract_data_ttl", ext, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_INVALID_INPUT));
  uint64_t inst[4] = { sym("key_1"), 2, scp_val_u32(1), scp_val_u32(6) };
  assert_int_equal(fixture_call(f, "extend_contract_data_ttl", inst, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_INVALID_ACTION));
  uint64_t missing[4] = { sym("nope"), 1, scp_val_u32(1), scp_val_u32(6) };
  assert_int_equal(fixture_call(f, "extend_contract_data_ttl", missing, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_MISSING_VALUE));
  /* v2: max below min is refused; a normal extension succeeds */
  uint64_t v2[5] = { sym("key_1"), 1, scp_val_u32(100), scp_val_u32(10), scp_val_u32(5) };
  assert_int_equal(fixture_call(f, "extend_contract_data_ttl_v2", v2, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_STORAGE, SCP_EC_INVALID_INPUT));
  v2[4] = scp_val_u32(50);
  assert_int_equal(fixture_call(f, "extend_contract_data_ttl_v2", v2, &ret, NULL, NULL), SCP_OK);
}

/* upload_wasm of the reference's own test contracts, as its traces
 * record it (a direct Env call: no dispatch):
 *   test__storage__test_persistent_storage steps 2->4 (example_contract_data,
 *   2,926 bytes, 11 imports, 16 pages): cpu 3,285,246, mem 1,640,387
 *   test__storage__test_nested_bump steps 2->4 (example_invoke_contract,
 *   2,522 bytes, 6 imports, 17 pages): cpu 2,980,547, mem 1,670,328 */
static void upload(const char *name, const char *hash8, uint64_t want_cpu, uint64_t want_mem) {
  uint8_t *w;
  size_t n;
  scp_error err;
  assert_true(ref_wasm(name, hash8, &w, &n));
  scp_budget b;
  scp_budget_init(&b, UINT64_MAX, UINT64_MAX);
  scp_host *h;
  assert_int_equal(scp_host_create(&b, NULL, &h), SCP_OK);
  uint64_t obj, ret;
  assert_int_equal(scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, w, (uint32_t)n, &obj), SCP_OK);
  uint64_t cpu = b.cpu, mem = b.mem;
  assert_int_equal(scp_host_call(h, fn("upload_wasm"), &obj, NULL, &ret, &err), SCP_OK);
  assert_int_equal(b.cpu - cpu, want_cpu);
  assert_int_equal(b.mem - mem, want_mem);
  /* the result is the code's SHA-256 */
  uint8_t hash[32];
  assert_int_equal(scp_host_memobj_copy_to_slice(h, ret, 0, hash, 32), SCP_OK);
  scp_host_destroy(h);
  free(w);
}

static void test_upload_wasm_trace(void **state) {
  (void)state;
  upload("example_contract_data.wasm", "fc644715", 3285246, 1640387);
  upload("example_invoke_contract.wasm", "3f2c7e4c", 2980547, 1670328);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_trace_charges, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_temporary_and_persistent_are_distinct, setup, fixture_close),
    cmocka_unit_test_setup_teardown(test_ttl, setup, fixture_close),
    cmocka_unit_test(test_upload_wasm_trace),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
