/*
 * test_size_upload.c — what uploading a contract costs on mainnet
 * (scp_size_soroban_upload), for two of the reference host's own test
 * contracts (tests/data/ref-wasms).
 *
 * Independent evidence: the upload's Budget charges equal the reference's
 * own traces of upload_wasm for these files (the numbers test_storage's
 * test_upload_wasm_trace pins through a direct host call; here they come
 * through the run layer's entry point).  The resources, fee and rent are
 * worked out by hand below from mainnet's settings of 2026-07-29 as
 * src/soroban/fee/net.c ships them and the fee rules of rs-soroban-env v28
 * fees.rs, the XDR sizes from stellar-xdr's definitions.  The module's
 * cost inputs (what its parsed form's memory is charged from) are read by
 * scprof's loader (pinned by the VM tests); the ParseWasm* memory
 * parameters are the reference's, written out here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "../soroban/ref_wasm.h"
#include "size/scp_size.h"
#include "soroban/run/scp_upload.h"

static int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* mainnet 2026-07-29 (net.c LAB_2026_07): fee per 10,000 instructions 7,
 * per write entry 2,500, per KB written 875, per KB of history 4,059, per
 * KB of events 5,000, per KB of transaction 406; persistent rent
 * denominator 1,215; minimum persistent TTL 2,073,600 ledgers.  The rent
 * fee per KB: state 1,388,000,392 bytes under the 3,000,000,000 target, so
 * -17,000 + ceil((10,000 + 17,000) x 1,388,000,392 / 3e9) = -4,507, below
 * the minimum of 1,000: 1,000. */
enum { INSTR_RATE = 7, WRITE_ENTRY = 2500, WRITE_KB = 875, HIST_KB = 4059, EVENT_KB = 5000,
       TX_KB = 406, RENT_KB = 1000, PERSISTENT_DEN = 1215, TTL = 2073600 };

/* wasm_module_memory_cost: the memory terms of the ParseWasm* cost types
 * (rs-soroban-env v28 cost params: const + (lin x n) >> 7) for the cost
 * inputs the module carries. */
static uint64_t module_memory(const uint8_t *w, size_t n) {
  scp_wasm_module *m = NULL;
  scp_error err;
  assert_int_equal(scp_wasm_load(w, n, &m, &err), SCP_OK);
  scp_wasm_cost_inputs c;
  scp_wasm_cost_inputs_get(m, &c);
  scp_wasm_module_free(m);
  return 17564 + ((6457ull * c.n_instructions) >> 7) + ((47464ull * c.n_functions) >> 7) +
         ((13420ull * c.n_globals) >> 7) + ((6285ull * c.n_table_entries) >> 7) +
         ((64670ull * c.n_types) >> 7) + ((29074ull * c.n_data_segments) >> 7) +
         ((48095ull * c.n_elem_segments) >> 7) + ((103229ull * c.n_imports) >> 7) +
         ((36394ull * c.n_exports) >> 7) + ((257ull * c.n_data_segment_bytes) >> 7);
}

static void check(const char *name, const char *hash8, uint64_t cpu, uint64_t mem) {
  uint8_t *w;
  size_t n;
  scp_error err;
  assert_true(ref_wasm(name, hash8, &w, &n));
  scp_size_upload u;
  scp_soroban_opts o = {.network = "mainnet@2026-07-29"};
  assert_int_equal(scp_size_soroban_upload(w, n, &o, &u, &err), SCP_OK);
  assert_int_equal(u.cpu, cpu);
  assert_int_equal(u.mem, mem);
  const scp_fee_upload_tx *t = &u.tx;
  uint32_t padded = (uint32_t)((n + 3) & ~(size_t)3);
  /* LedgerEntry: lastModifiedLedgerSeq 4, type 4, ContractCodeEntry {ext
   * v1: 4 + cost inputs 10 x 4 + their ext 4 = 48, hash 32, code 4 +
   * padded}, ext 4 */
  uint32_t entry = 4 + 4 + 48 + 32 + 4 + padded + 4;
  assert_int_equal(t->entry_size, entry);
  /* envelope without the operation body and footprint 184; footprint key
   * ContractCode 4 + 32; HostFunction::UploadContractWasm 4 + 4 + padded;
   * no auth 4 */
  uint32_t tx = 184 + 36 + 4 + 4 + padded + 4;
  assert_int_equal(t->tx_size, tx);
  assert_int_equal(t->result_size, 40);        /* ScVal::Bytes: 4 + 4 + 32 */
  int64_t compute = ceil_div((int64_t)cpu * INSTR_RATE, 10000);
  int64_t wbytes = ceil_div((int64_t)entry * WRITE_KB, 1024);
  int64_t hist = ceil_div((int64_t)(tx + 300) * HIST_KB, 1024);
  int64_t band = ceil_div((int64_t)tx * TX_KB, 1024);
  assert_int_equal(t->fee.compute, compute);
  assert_int_equal(t->fee.write_entries, WRITE_ENTRY);
  assert_int_equal(t->fee.write_bytes, wbytes);
  assert_int_equal(t->fee.historical, hist);
  assert_int_equal(t->fee.bandwidth, band);
  assert_int_equal(t->fee.disk_read_entries + t->fee.disk_read_bytes, 0);
  assert_int_equal(t->fee.non_refundable, compute + WRITE_ENTRY + wbytes + hist + band);
  int64_t events = ceil_div(40 * EVENT_KB, 1024);  /* 196 */
  assert_int_equal(t->fee.refundable, events);
  /* rent: the entry and its parsed module, for TTL ledgers at 1,000 per
   * KB, over 1,024 x 1,215, a third for code (rounded up); then the TTL
   * entry's write: one entry and 48 bytes */
  uint64_t rsize = entry + module_memory(w, n);
  assert_int_equal(t->rent_size, rsize);
  assert_int_equal(t->rent_fee_per_1kb, RENT_KB);
  int64_t rent = ceil_div(ceil_div((int64_t)rsize * RENT_KB * TTL, 1024 * PERSISTENT_DEN), 3);
  int64_t ttl_write = WRITE_ENTRY + ceil_div(48 * WRITE_KB, 1024);   /* 2,500 + 42 */
  assert_int_equal(t->rent.entries, rent);
  assert_int_equal(t->rent.total, rent + ttl_write);
  assert_int_equal(t->total, compute + WRITE_ENTRY + wbytes + hist + band + events + rent +
                                 ttl_write);
  free(w);
}

/* The Budget figures are the reference's traces (test_storage.c):
 * example_contract_data 2,926 bytes, example_invoke_contract 2,522. */
static void test_mainnet_upload(void **state) {
  (void)state;
  check("example_contract_data.wasm", "fc644715", 3285246, 1640387);
  check("example_invoke_contract.wasm", "3f2c7e4c", 2980547, 1670328);
}

/* --soroban-state-size: at 2,500,000,000 bytes, under mainnet's target,
 * the rent fee is -17,000 + ceil(27,000 x 2.5e9 / 3e9) = 5,500 per KB; the
 * rent follows, the rest of the fee does not move. */
static void test_state_size(void **state) {
  (void)state;
  uint8_t *w;
  size_t n;
  scp_error err;
  assert_true(ref_wasm("example_contract_data.wasm", "fc644715", &w, &n));
  scp_size_upload a, b;
  scp_soroban_opts o = {.network = "mainnet@2026-07-29"};
  assert_int_equal(scp_size_soroban_upload(w, n, &o, &a, &err), SCP_OK);
  o.soroban_state_size = 2500000000u;
  assert_int_equal(scp_size_soroban_upload(w, n, &o, &b, &err), SCP_OK);
  assert_int_equal(b.tx.rent_fee_per_1kb, 5500);
  int64_t rsize = b.tx.rent_size;
  assert_int_equal(b.tx.rent.entries,
                   ceil_div(ceil_div(rsize * 5500 * TTL, 1024 * PERSISTENT_DEN), 3));
  assert_int_equal(b.tx.fee.non_refundable, a.tx.fee.non_refundable);
  free(w);
}

/* No network, an unknown network, code over mainnet's contract_max_size_bytes
 * (131,072) and bytes the host refuses each fail with their own error. */
static void test_refused(void **state) {
  (void)state;
  static uint8_t big[131073] = {0, 'a', 's', 'm', 1, 0, 0, 0};
  static const uint8_t junk[] = {0, 'a', 's', 'm', 1, 0, 0, 0, 0xff};
  scp_size_upload u;
  scp_error err;
  scp_soroban_opts none = {0}, moon = {.network = "moonnet"}, main = {.network = "mainnet"};
  assert_int_equal(scp_size_soroban_upload(junk, sizeof junk, &none, &u, &err), SCP_ERR_ARG);
  assert_int_equal(scp_size_soroban_upload(junk, sizeof junk, &moon, &u, &err), SCP_ERR_ARG);
  assert_int_equal(scp_size_soroban_upload(big, sizeof big, &main, &u, &err), SCP_ERR_LIMIT);
  assert_non_null(strstr(err.msg, "contract_max_size_bytes 131072"));
  assert_int_equal(scp_size_soroban_upload(big, sizeof big - 1, &main, &u, &err), SCP_ERR_HOST);
  assert_int_equal(scp_size_soroban_upload(junk, sizeof junk, &main, &u, &err), SCP_ERR_HOST);
  assert_non_null(strstr(err.msg, "invalid Wasm"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mainnet_upload),
      cmocka_unit_test(test_state_size),
      cmocka_unit_test(test_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
