/*
 * test_xdr_writes.c — the writes stellar-xdr's writer makes for a value
 * (scp_xdr_writes, src/xdr/xdr_writes.c).  Independent evidence: each
 * value is built from its JSON with the codec, and its write sequence is
 * worked out by hand from stellar-xdr 28's generated WriteXdr impls (an
 * integer or discriminant one write of 4/8 bytes; variable opaque and
 * strings their length, body, padding as three writes, an empty one
 * left out; an Option its flag, then the value).  The ValSer charges of
 * these writes are test_sortx_teardown.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/scp_json.h"
#include "xdr/scp_xdr.h"
#include "xdr_text.h"

#define C "CC6CLEDX3HP6XYUT4GODR4OW6JELD4XAACWMSUDA4D7E2Z5GMO2FMOR4"
#define H32 "976b0908dddf6d4d4cdd38db89921b193c120785e75d10defae16709d19e6ab4"

typedef struct seq {
  size_t n[64];
  size_t count;
  int stop_at;   /* the write whose callback fails (1-based), 0: none */
} seq;

static int record(void *ctx, size_t n) {
  seq *s = ctx;
  if (s->count < 64) s->n[s->count] = n;
  s->count++;
  return s->stop_at && (int)s->count == s->stop_at ? SCP_ERR_BUDGET : SCP_OK;
}

/* the writes of type's value text are want[0..n) */
static void check(const char *type, const char *text, const size_t *want, size_t n) {
  scp_buf b = {0};
  xdr_text(type, text, &b);
  seq s = {.count = 0};
  scp_error e = {0};
  assert_int_equal(scp_xdr_writes(scp_xdr_find(type), (uint8_t *)b.data, b.len, record, &s, &e), SCP_OK);
  assert_int_equal(s.count, n);
  size_t total = 0;
  for (size_t i = 0; i < n; i++) {
    assert_int_equal(s.n[i], want[i]);
    total += want[i];
  }
  assert_int_equal(total, b.len);   /* the writes make up the binary */
  scp_buf_free(&b);
}

static void test_scalars(void **state) {
  (void)state;
  /* the arm, the u32 */
  check("ScVal", "{\"u32\": 7}", (const size_t[]){4, 4}, 2);
  /* the arm, the u64 */
  check("ScVal", "{\"u64\": \"9\"}", (const size_t[]){4, 8}, 2);
  /* the arm, then Int128Parts hi (i64), lo (u64) */
  check("ScVal", "{\"i128\": \"-5\"}", (const size_t[]){4, 8, 8}, 3);
  /* UInt256Parts: four u64s */
  check("ScVal", "{\"u256\": \"1\"}", (const size_t[]){4, 8, 8, 8, 8}, 5);
  /* void: the arm alone */
  check("ScVal", "\"void\"", (const size_t[]){4}, 1);
  check("ScVal", "{\"bool\": true}", (const size_t[]){4, 4}, 2);
}

static void test_opaque(void **state) {
  (void)state;
  /* bytes of 5: the arm, the length, the body, 3 bytes of padding */
  check("ScVal", "{\"bytes\": \"0102030405\"}", (const size_t[]){4, 4, 5, 3}, 4);
  /* bytes of 8: no padding write */
  check("ScVal", "{\"bytes\": \"0102030405060708\"}", (const size_t[]){4, 4, 8}, 3);
  /* empty bytes: no body, no padding */
  check("ScVal", "{\"bytes\": \"\"}", (const size_t[]){4, 4}, 2);
  /* a symbol of 5 */
  check("ScVal", "{\"symbol\": \"count\"}", (const size_t[]){4, 4, 5, 3}, 4);
  /* a contract address: the ScVal arm, the ScAddress arm, the 32-byte id */
  check("ScVal", "{\"address\": \"" C "\"}", (const size_t[]){4, 4, 32}, 3);
}

static void test_containers(void **state) {
  (void)state;
  /* a map of one entry: the arm, Some, the length, the key (arm, length,
   * body, padding), the value (arm, u64) */
  check("ScVal", "{\"map\": [{\"key\": {\"symbol\": \"a\"}, \"val\": {\"u64\": \"1\"}}]}",
        (const size_t[]){4, 4, 4, 4, 4, 1, 3, 4, 8}, 9);
  /* a vec of two u32s */
  check("ScVal", "{\"vec\": [{\"u32\": 1}, {\"u32\": 2}]}", (const size_t[]){4, 4, 4, 4, 4, 4, 4}, 7);
}

static void test_ledger(void **state) {
  (void)state;
  /* LedgerKey contract data: its arm, the ScAddress arm and id, the key
   * (the instance key: its arm alone), the durability */
  check("LedgerKey",
        "{\"contract_data\": {\"contract\": \"" C "\", \"key\": \"ledger_key_contract_instance\", "
        "\"durability\": \"persistent\"}}",
        (const size_t[]){4, 4, 32, 4, 4}, 5);
  /* LedgerEntry of counter's count: last modified, the arm, ext, address
   * (arm, id), key (arm, length, body, padding), durability, value (arm,
   * u32), the entry's ext */
  check("LedgerEntry",
        "{\"last_modified_ledger_seq\": 0, \"data\": {\"contract_data\": {\"ext\": \"v0\", \"contract\": \"" C
        "\", \"key\": {\"symbol\": \"count\"}, \"durability\": \"persistent\", \"val\": {\"u32\": 7}}}, "
        "\"ext\": \"v0\"}",
        (const size_t[]){4, 4, 4, 4, 32, 4, 4, 5, 3, 4, 4, 4, 4}, 13);
  /* a ContractEvent: ext, Some(contract id), type, body arm, topics
   * (length, one symbol), data (u32) */
  check("ContractEvent",
        "{\"ext\": \"v0\", \"contract_id\": \"" H32 "\", \"type\": \"contract\", \"body\": {\"v0\": "
        "{\"topics\": [{\"symbol\": \"COUNTER\"}], \"data\": {\"u32\": 1}}}}",
        (const size_t[]){4, 4, 32, 4, 4, 4, 4, 4, 7, 1, 4, 4}, 12);
}

static void test_refused(void **state) {
  (void)state;
  scp_buf b = {0};
  xdr_text("ScVal", "{\"bytes\": \"0102030405\"}", &b);
  seq s = {.count = 0};
  scp_error e = {0};
  const scp_xdr_type *t = scp_xdr_find("ScVal");
  /* truncated: the padding is missing */
  assert_int_equal(scp_xdr_writes(t, (uint8_t *)b.data, b.len - 3, record, &s, &e), SCP_ERR_MALFORMED);
  assert_non_null(strstr(e.msg, "truncated"));
  /* trailing bytes */
  scp_buf_put(&b, "\0\0\0\0", 4);
  s.count = 0;
  assert_int_equal(scp_xdr_writes(t, (uint8_t *)b.data, b.len, record, &s, &e), SCP_ERR_MALFORMED);
  assert_non_null(strstr(e.msg, "trailing"));
  /* the callback's failure stops the walk at that write */
  s = (seq){.stop_at = 2};
  assert_int_equal(scp_xdr_writes(t, (uint8_t *)b.data, b.len - 4, record, &s, &e), SCP_ERR_BUDGET);
  assert_int_equal(s.count, 2);
  /* an unknown arm */
  uint8_t bad[4] = {0, 0, 0, 99};
  assert_int_equal(scp_xdr_writes(t, bad, 4, record, &s, &e), SCP_ERR_MALFORMED);
  scp_buf_free(&b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalars),
      cmocka_unit_test(test_opaque),
      cmocka_unit_test(test_containers),
      cmocka_unit_test(test_ledger),
      cmocka_unit_test(test_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
