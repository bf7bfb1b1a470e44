/*
 * test_sortx_teardown.c — the network's teardown after a transaction's
 * call (src/soroban/core/host_teardown.c) and its metered XDR writes, on
 * a bare host.
 *
 * Independent evidence: every CPU and memory figure is worked out by hand
 * from the cost parameters (cost_types.def: ValSer 221 + 26x/128 CPU,
 * 242 + 3x bytes; MemAlloc 434 + x/8, 16 + x; MemCpy 42 + x/8;
 * VisitObject 60) and the write sequences of stellar-xdr 28's writer
 * (test_xdr_writes.c); and the walker's charges on host values equal
 * those of the host's own metered ScVal writer (host_xdr.c, which
 * serialize_to_bytes uses), a second implementation of the same rule.
 * The whole frame on a real envelope is tests/e2e/sortx.sh's (derived)
 * and test_sortx.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/core/host_enforce.h"
#include "util/scp_json.h"
#include "xdr/scp_xdr.h"
#include "../xdr/xdr_text.h"
#include "host_fixture.h"

#define C "CC6CLEDX3HP6XYUT4GODR4OW6JELD4XAACWMSUDA4D7E2Z5GMO2FMOR4"

static int setup(void **state) { return fixture_open(state, 0, 0, NULL, 64); }
static int teardown(void **state) { return fixture_close(state); }

/* The CPU and memory scp_host_charge_write_xdr charges for type's value
 * text. */
static void charged(fixture *f, const char *type, const char *text, uint64_t cpu, uint64_t mem) {
  scp_buf b = {0};
  xdr_text(type, text, &b);
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  assert_int_equal(scp_host_charge_write_xdr(f->h, type, (uint8_t *)b.data, b.len), SCP_OK);
  assert_int_equal(f->b.cpu - c0, cpu);
  assert_int_equal(f->b.mem - m0, mem);
  scp_buf_free(&b);
}

/* ValSer per write: 4 bytes 221 CPU / 254 bytes, 8 bytes 222 / 266, 32
 * bytes 227 / 338, 5 bytes 222 / 257, 3 bytes 221 / 251, 1 byte 221 /
 * 245. */
static void test_write_charges(void **state) {
  fixture *f = *state;
  /* two writes of 4 */
  charged(f, "ScVal", "{\"u32\": 7}", 442, 508);
  /* 4, 4, 5, 3 */
  charged(f, "ScVal", "{\"bytes\": \"0102030405\"}", 885, 1016);
  /* 4, 4, 4, then the key 4, 4, 1, 3, the value 4, 8 */
  charged(f, "ScVal", "{\"map\": [{\"key\": {\"symbol\": \"a\"}, \"val\": {\"u64\": \"1\"}}]}", 1990, 2286);
  /* the instance key: 4, 4, 32, 4, 4 */
  charged(f, "LedgerKey",
          "{\"contract_data\": {\"contract\": \"" C "\", \"key\": \"ledger_key_contract_instance\", "
          "\"durability\": \"persistent\"}}",
          1111, 1354);
  /* counter's count entry: ten writes of 4, one of 32, 5, 3 */
  charged(f, "LedgerEntry",
          "{\"last_modified_ledger_seq\": 0, \"data\": {\"contract_data\": {\"ext\": \"v0\", \"contract\": \"" C
          "\", \"key\": {\"symbol\": \"count\"}, \"durability\": \"persistent\", \"val\": {\"u32\": 7}}}, "
          "\"ext\": \"v0\"}",
          2880, 3386);
  /* a binary the walker refuses is the host's internal error */
  uint8_t bad[4] = {0, 0, 0, 99};
  assert_int_equal(scp_host_charge_write_xdr(f->h, "ScVal", bad, 4), SCP_ERR_HOST);
}

/* The walker's charges on a host value's image equal those of the host's
 * own writer over the value. */
static void test_same_as_host_writer(void **state) {
  fixture *f = *state;
  static const char *const vals[] = {
      "{\"u32\": 7}",
      "{\"i128\": \"-170141183460469231731687303715884105728\"}",
      "{\"u256\": \"1\"}",
      "{\"string\": \"seven\"}",
      "{\"address\": \"" C "\"}",
      "{\"vec\": [{\"symbol\": \"count\"}, {\"bytes\": \"01\"}, {\"u64\": \"18446744073709551615\"}, \"void\"]}",
      "{\"map\": [{\"key\": {\"symbol\": \"a\"}, \"val\": {\"vec\": [{\"i64\": \"-1\"}]}}, "
      "{\"key\": {\"symbol\": \"b\"}, \"val\": {\"timepoint\": \"5\"}}]}",
  };
  for (size_t i = 0; i < sizeof vals / sizeof *vals; i++) {
    scp_buf b = {0};
    xdr_text("ScVal", vals[i], &b);
    uint64_t v;
    assert_int_equal(scp_host_val_from_xdr(f->h, (uint8_t *)b.data, b.len, &v), SCP_OK);
    uint8_t *img = NULL;
    size_t len = 0;
    uint64_t c0 = f->b.cpu, m0 = f->b.mem;
    assert_int_equal(scp_host_val_to_xdr_writes(f->h, v, &img, &len), SCP_OK);
    uint64_t hc = f->b.cpu - c0, hm = f->b.mem - m0;
    assert_int_equal(len, b.len);
    assert_memory_equal(img, b.data, len);
    c0 = f->b.cpu;
    m0 = f->b.mem;
    assert_int_equal(scp_host_charge_write_xdr(f->h, "ScVal", img, len), SCP_OK);
    assert_int_equal(f->b.cpu - c0, hc);
    assert_int_equal(f->b.mem - m0, hm);
    free(img);
    scp_buf_free(&b);
  }
}

/* One contract event: topics [count] (a small symbol), data u32 7, the
 * contract id a Bytes object of 32. */
static scp_event event(fixture *f, bool with_id) {
  uint64_t topic = sym("count"), topics;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &topic, 1, &topics), SCP_OK);
  uint8_t id[32] = {7};
  return (scp_event){.topics = topics, .data = scp_val_u32(7), .id = with_id ? bytes_obj(f->h, id, 32) : 0};
}

static void push(fixture *f, scp_event ev) {
  scp_host *h = f->h;
  assert_true(scp_grow(&h->events, &h->capevents, h->nevents + 1, sizeof *h->events));
  h->events[h->nevents++] = ev;
}

/* The teardown's charges with an empty footprint. */
static void teardown_cost(fixture *f, bool call_ok, uint64_t result, uint64_t *cpu, uint64_t *mem) {
  scp_e2e_setup s = {.nro = 0};
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  assert_int_equal(scp_storage_enforce_teardown(f->h, &s, call_ok, result), SCP_OK);
  *cpu = f->b.cpu - c0;
  *mem = f->b.mem - m0;
}

/* T1, one event externalized: VisitObject 60, the collect's MemCpy(40)
 * 47, MemAlloc(112) 448 (128 bytes), MemCpy(112) 56, the id's
 * VisitObject 60 and MemCpy(32) 46, Vec<HostEvent> MemCpy(24) 45,
 * MemAlloc(168) 455 (184 bytes), MemCpy(168) 63: 1,280 CPU, 312 bytes;
 * without an id 1,174. */
static void test_failed_call(void **state) {
  fixture *f = *state;
  uint64_t cpu, mem;
  teardown_cost(f, false, 0, &cpu, &mem);
  assert_int_equal(cpu, 0);   /* nothing to externalize, nothing else on failure */
  push(f, event(f, true));
  teardown_cost(f, false, 0, &cpu, &mem);
  assert_int_equal(cpu, 1280);
  assert_int_equal(mem, 312);
  f->h->nevents = 0;
  push(f, event(f, false));
  teardown_cost(f, false, 0, &cpu, &mem);
  assert_int_equal(cpu, 1174);
  assert_int_equal(mem, 312);
}

/* A rolled-back event is externalized (T1) but not encoded (T4): on
 * success with the u32 result, T1 twice (2,560 CPU, 624 bytes), T2 two
 * writes of 4 (442, 508), T4 the kept event's writes (nine of 4, 32, 5
 * of "count", its padding 3: 2,659 CPU, 3,132 bytes) and Vec<Vec<u8>>
 * of one (MemCpy(24) 45, MemAlloc(24) 437 (40 bytes), MemCpy(24) 45):
 * 6,188 CPU, 4,304 bytes. */
static void test_rolled_back_event(void **state) {
  fixture *f = *state;
  push(f, event(f, true));
  push(f, event(f, true));
  scp_host_events_rollback(f->h, 1);
  assert_int_equal(f->h->nevents, 1);
  assert_int_equal(f->h->nfailed_events, 1);
  uint64_t cpu, mem;
  teardown_cost(f, true, scp_val_u32(7), &cpu, &mem);
  assert_int_equal(cpu, 2560 + 442 + 2659 + 527);
  assert_int_equal(mem, 624 + 508 + 3132 + 40);
  /* on failure, T1 alone */
  teardown_cost(f, false, 0, &cpu, &mem);
  assert_int_equal(cpu, 2560);
}

/* T0: the returned Val converted: a U64 object is visited and copied
 * (VisitObject 60, MemCpy(8) 43), before the result's writes (4, 8: 443
 * CPU, 520 bytes) and the empty Vec<Vec<u8>> (MemCpy(24) 45, MemAlloc(0)
 * 434 (16 bytes), MemCpy(0) 42). */
static void test_result_converted(void **state) {
  fixture *f = *state;
  scp_buf b = {0};
  xdr_text("ScVal", "{\"u64\": \"18446744073709551615\"}", &b);
  uint64_t v;
  assert_int_equal(scp_host_val_from_xdr(f->h, (uint8_t *)b.data, b.len, &v), SCP_OK);
  scp_buf_free(&b);
  uint64_t cpu, mem;
  teardown_cost(f, true, v, &cpu, &mem);
  assert_int_equal(cpu, 60 + 43 + 443 + 45 + 434 + 42);
  assert_int_equal(mem, 520 + 16);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_write_charges, setup, teardown),
      cmocka_unit_test_setup_teardown(test_same_as_host_writer, setup, teardown),
      cmocka_unit_test_setup_teardown(test_failed_call, setup, teardown),
      cmocka_unit_test_setup_teardown(test_rolled_back_event, setup, teardown),
      cmocka_unit_test_setup_teardown(test_result_converted, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
