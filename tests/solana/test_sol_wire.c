/*
 * test_sol_wire.c — wire transactions (scp_sol_wire) and their fee
 * (sol_fee): compact-u16 lengths, legacy and v0 decoding, base58/base64
 * text, the sanitize rules, lookup tables (order, activity, the index
 * bound of the current slot), write demotion, and the fee charged and
 * kept.  Every expected number is worked out here from the format and the
 * rules (the fee: 5,000 per signature plus ceil(price x limit / 10^6));
 * tests/e2e/sol_wire.sh compares the same paths with litesvm.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "solana/scp_sol_wire.h"
#include "solana/scp_sol_rpctx.h"
#include "solana/sol_fee.h"
#include "util/scp_codec.h"

#include <sodium.h>

typedef struct wb {
  uint8_t b[2048];
  size_t n;
} wb;

static void put(wb *w, const void *p, size_t n) {
  memcpy(w->b + w->n, p, n);
  w->n += n;
}
static void byte(wb *w, uint8_t x) { w->b[w->n++] = x; }
static void key(wb *w, uint8_t fill) {
  uint8_t k[32];
  memset(k, fill, 32);
  put(w, k, 32);
}

/* 1 signature; header 1 0 1; keys: payer (0x01..), 0x02.., System;
 * blockhash 0x07..; one System instruction on accounts 0 and 1 with 12
 * bytes of data (transfer of 1,000,000 lamports); v0: the second static key
 * replaced by a lookup of table 0x7a.. (writable index 1, read-only 0) */
static void legacy_transfer(wb *w, bool v0) {
  static const uint8_t data[12] = {2, 0, 0, 0, 0x40, 0x42, 0x0f, 0, 0, 0, 0, 0};
  uint8_t sig[64] = {0};
  w->n = 0;
  byte(w, 1);
  put(w, sig, 64);
  if (v0) byte(w, 0x80);
  byte(w, 1), byte(w, 0), byte(w, 1);
  byte(w, v0 ? 2 : 3);
  key(w, 1);
  if (!v0) key(w, 2);
  key(w, 0);
  key(w, 7);
  byte(w, 1);
  byte(w, v0 ? 1 : 2);
  byte(w, 2), byte(w, 0), byte(w, v0 ? 2 : 1);
  byte(w, 12);
  put(w, data, 12);
  if (v0) {
    byte(w, 1);
    key(w, 0x7a);
    byte(w, 1), byte(w, 1);
    byte(w, 1), byte(w, 0);
  }
}

static void test_decode_legacy(void **state) {
  (void)state;
  wb w;
  scp_sol_wire_tx tx;
  scp_error err = {0};
  legacy_transfer(&w, false);
  assert_int_equal(scp_sol_wire_decode(w.b, w.n, &tx, &err), SCP_OK);
  assert_false(tx.v0);
  assert_int_equal(tx.nsigs, 1);
  assert_int_equal(tx.nkeys, 3);
  assert_int_equal(tx.nixs, 1);
  assert_int_equal(tx.ixs[0].program, 2);
  assert_int_equal(tx.ixs[0].naccts, 2);
  assert_int_equal(tx.ixs[0].len, 12);
  /* the message is everything after the 1 + 64 signature bytes */
  assert_int_equal(tx.msglen, w.n - 65);
  assert_int_equal(tx.blockhash[0], 7);
  scp_sol_wire_free(&tx);
}

static void test_decode_refusals(void **state) {
  (void)state;
  wb w;
  scp_sol_wire_tx tx;
  scp_error err = {0};
  legacy_transfer(&w, false);
  for (size_t cut = 0; cut < w.n; cut++) {
    assert_int_equal(scp_sol_wire_decode(w.b, cut, &tx, &err), SCP_ERR_MALFORMED);
    assert_non_null(strstr(err.msg, "runs past the end"));
  }
  w.b[w.n++] = 0;
  assert_int_equal(scp_sol_wire_decode(w.b, w.n, &tx, &err), SCP_ERR_MALFORMED);
  /* 1 + 64 + 3 + 1 + 3 x 32 + 32 + 1 + (1 + 1 + 2 + 1 + 12) = 215 */
  assert_string_equal(err.msg, "1 bytes after the transaction (it ends at byte 215)");
  /* 0x80 0x00 is 0 written in two bytes: not canonical */
  static const uint8_t two[] = {0x80, 0x00};
  assert_int_equal(scp_sol_wire_decode(two, 2, &tx, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "not a canonical compact-u16"));
  static const uint8_t four[] = {0x80, 0x80, 0x80, 0x01};
  assert_int_equal(scp_sol_wire_decode(four, 4, &tx, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "longer than a compact-u16"));
  static const uint8_t v1[] = {0, 0x81};
  assert_int_equal(scp_sol_wire_decode(v1, 2, &tx, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "message version 1"));
}

static void test_text(void **state) {
  (void)state;
  uint8_t *out;
  size_t n;
  scp_error err = {0};
  /* "AQID" is base64 of 01 02 03; 0x010203 = 66051 = 19 x 58^2 + 36 x 58
   * + 47, base58 digits 'L' 'd' 'p', and a leading '1' is a zero byte */
  assert_int_equal(scp_sol_wire_text((const uint8_t *)" AQID\n", 6, &out, &n, &err), SCP_OK);
  assert_int_equal(n, 3);
  assert_memory_equal(out, "\1\2\3", 3);
  free(out);
  /* five characters are not base64 */
  assert_int_equal(scp_sol_wire_text((const uint8_t *)"11Ldp\n", 6, &out, &n, &err), SCP_OK);
  assert_int_equal(n, 5);
  assert_memory_equal(out, "\0\0\1\2\3", 5);
  free(out);
  /* raw bytes stay as they are */
  assert_int_equal(scp_sol_wire_text((const uint8_t *)"\1\0\xff", 3, &out, &n, &err), SCP_OK);
  assert_int_equal(n, 3);
  free(out);
  assert_int_equal(scp_sol_wire_text((const uint8_t *)"not a tx!", 9, &out, &n, &err), SCP_ERR_MALFORMED);
}

/* A real transaction in base58 whose text is a multiple of 4 long: every
 * such text is valid base64 too (base58's letters are base64's), so the
 * reader must take the reading that is a transaction. */
static void test_text_base58_also_base64(void **state) {
  (void)state;
  wb w;
  char text[4096];
  size_t len = 0;
  for (uint8_t more = 0; more < 8; more++) {
    /* the instruction's data, 12 bytes at the end, made longer: the text's
     * length moves by one or two letters a byte */
    legacy_transfer(&w, false);
    w.b[w.n - 13] = (uint8_t)(12 + more);
    for (uint8_t k = 0; k < more; k++) byte(&w, k);
    len = scp_b58_encode(w.b, w.n, text, sizeof text);
    if (len && len % 4 == 0) break;
  }
  assert_true(len && len % 4 == 0);
  uint8_t b64[4096], *out;
  size_t b64len, n;
  assert_int_equal(sodium_base642bin(b64, sizeof b64, text, len, NULL, &b64len, NULL,
                                     sodium_base64_VARIANT_ORIGINAL), 0);
  scp_error err = {0};
  assert_int_equal(scp_sol_wire_text((const uint8_t *)text, len, &out, &n, &err), SCP_OK);
  assert_int_equal(n, w.n);
  assert_memory_equal(out, w.b, w.n);
  free(out);
}

/* the state: the payer, and table 0x7a.. of addresses 0x30.., 0x31.. */
static void state_with_table(scp_sol_account st[2], uint8_t *alt, uint64_t deactivation, uint64_t extended,
                             uint8_t start) {
  memset(st, 0, 2 * sizeof *st);
  memset(st[0].key, 1, 32);
  st[0].lamports = 1000000;
  memset(st[1].key, 0x7a, 32);
  scp_sol_key_parse(scp_sol_alt_program, strlen(scp_sol_alt_program), st[1].owner);
  memset(alt, 0, 56 + 64);
  alt[0] = 1;
  for (int i = 0; i < 8; i++) alt[4 + i] = (uint8_t)(deactivation >> (8 * i)), alt[12 + i] = (uint8_t)(extended >> (8 * i));
  alt[20] = start;
  memset(alt + 56, 0x30, 32);
  memset(alt + 88, 0x31, 32);
  st[1].data = alt;
  st[1].len = 56 + 64;
  st[1].lamports = 1;
}

static void test_lookup_order_and_flags(void **state) {
  (void)state;
  wb w;
  scp_sol_wire_tx tx;
  scp_sol_wire_msg m;
  scp_sol_account st[2];
  uint8_t alt[120];
  scp_error err = {0};
  legacy_transfer(&w, true);
  assert_int_equal(scp_sol_wire_decode(w.b, w.n, &tx, &err), SCP_OK);
  assert_true(tx.v0);
  state_with_table(st, alt, UINT64_MAX, 0, 0);
  assert_int_equal(scp_sol_wire_load(&tx, st, 2, NULL, &m, &err), SCP_OK);
  assert_string_equal(m.txerr, "");
  /* payer, System, then the writable 0x31.., then the read-only 0x30.. */
  assert_int_equal(m.nmsg, 4);
  assert_int_equal(m.accts[2].key[0], 0x31);
  assert_int_equal(m.accts[3].key[0], 0x30);
  assert_true(m.writable[0]);
  assert_false(m.writable[1]);   /* read-only unsigned, and the System id */
  assert_true(m.writable[2]);
  assert_false(m.writable[3]);
  /* the instruction's second account is index 2, writable, not a signer */
  assert_int_equal(m.ixs[0].accts[1].index, 2);
  assert_true(m.ixs[0].accts[1].writable);
  assert_false(m.ixs[0].accts[1].signer);
  assert_true(m.ixs[0].accts[0].signer);
  /* the state's other accounts follow the message's */
  assert_int_equal(m.naccts, 5);
  scp_sol_wire_msg_free(&m);

  static const struct {
    uint64_t deactivation, extended;
    uint8_t start;
    const char *txerr;
  } CASES[] = {
      {447552000, 0, 0, ""},                          /* deactivated in this slot: usable */
      {447551999, 0, 0, "AddressLookupTableNotFound"}, /* not in SlotHashes */
      {UINT64_MAX, 447552000, 1, "InvalidAddressLookupTableIndex"}, /* only index 0 usable now */
      {UINT64_MAX, 447552000, 2, ""},
      {UINT64_MAX, 447551999, 0, ""},                 /* extended before: all usable */
  };
  for (size_t i = 0; i < sizeof CASES / sizeof *CASES; i++) {
    state_with_table(st, alt, CASES[i].deactivation, CASES[i].extended, CASES[i].start);
    assert_int_equal(scp_sol_wire_load(&tx, st, 2, NULL, &m, &err), SCP_OK);
    assert_string_equal(m.txerr, CASES[i].txerr);
    scp_sol_wire_msg_free(&m);
  }
  state_with_table(st, alt, UINT64_MAX, 0, 0);
  memset(st[1].owner, 0, 32);
  assert_int_equal(scp_sol_wire_load(&tx, st, 2, NULL, &m, &err), SCP_OK);
  assert_string_equal(m.txerr, "InvalidAddressLookupTableOwner");
  scp_sol_wire_msg_free(&m);
  state_with_table(st, alt, UINT64_MAX, 0, 0);
  st[1].len = 56 + 63;
  assert_int_equal(scp_sol_wire_load(&tx, st, 2, NULL, &m, &err), SCP_OK);
  assert_string_equal(m.txerr, "InvalidAddressLookupTableData");
  scp_sol_wire_msg_free(&m);
  assert_int_equal(scp_sol_wire_load(&tx, st, 1, NULL, &m, &err), SCP_OK);
  assert_string_equal(m.txerr, "AddressLookupTableNotFound");
  scp_sol_wire_msg_free(&m);
  scp_sol_wire_free(&tx);
}

static void test_sanitize(void **state) {
  (void)state;
  wb w;
  scp_sol_wire_tx tx;
  scp_sol_wire_msg m;
  scp_error err = {0};
  /* the program index 0 (the fee payer), a header past the keys, two
   * signatures for one required, a key twice */
  static const size_t AT_PROGRAM = 65 + 3 + 1 + 96 + 32 + 1;
  for (int c = 0; c < 4; c++) {
    legacy_transfer(&w, false);
    if (c == 0) w.b[AT_PROGRAM] = 0;
    if (c == 1) w.b[65 + 2] = 3;
    if (c == 2) w.b[65] = 2;
    if (c == 3) memset(w.b + 65 + 4 + 32, 1, 32);
    assert_int_equal(scp_sol_wire_decode(w.b, w.n, &tx, &err), SCP_OK);
    assert_int_equal(scp_sol_wire_load(&tx, NULL, 0, NULL, &m, &err), SCP_OK);
    assert_string_equal(m.txerr, c == 3 ? "AccountLoadedTwice" : "SanitizeFailure");
    assert_int_equal(m.nixs, 0);
    scp_sol_wire_free(&tx);
  }
}

static void test_fee(void **state) {
  (void)state;
  scp_sol_tx_ix ix[2] = {{{0}, NULL, 0, (const uint8_t *)"\2", 1, NULL}, {{0}, NULL, 0, (const uint8_t *)"\3", 1, NULL}};
  scp_sol_key_parse("Ed25519SigVerify111111111111111111111111111", 43, ix[1].program);
  scp_sol_tx_opts o = {0};
  o.ixs = ix, o.nixs = 2, o.nreq = 2;
  /* 2 signatures + 3 of the Ed25519 instruction; 1,000,001 micro-lamports
   * over 1 CU round up to 2 lamports */
  assert_int_equal(sol_fee_of(&o, 0, 200000), 25000);
  assert_int_equal(sol_fee_of(&o, 1000001, 1), 25002);
  assert_int_equal(sol_fee_of(&o, 1, 1000000), 25001);
  scp_sol_account payer = {0};
  char why[96];
  payer.lamports = 890880 + 4999;
  sol_fee_charge(&payer, 5000, why, sizeof why);
  assert_string_equal(why, "InsufficientFundsForRent { account_index: 0 }");
  assert_int_equal(payer.lamports, 890880 + 4999);
  payer.lamports = 4999;   /* rent-paying already: it may pay down */
  sol_fee_charge(&payer, 5000, why, sizeof why);
  assert_string_equal(why, "InsufficientFundsForFee");
  payer.lamports = 5000;   /* to zero: uninitialized is no rent-paying state */
  sol_fee_charge(&payer, 5000, why, sizeof why);
  assert_string_equal(why, "");
  assert_int_equal(payer.lamports, 0);
  sol_fee_charge(&payer, 5000, why, sizeof why);
  assert_string_equal(why, "AccountNotFound");
  payer.lamports = 1000000;
  payer.owner[0] = 1;
  sol_fee_charge(&payer, 5000, why, sizeof why);
  assert_string_equal(why, "InvalidAccountForFee");
}

/* the transfer run: 150 CU, 5,000 lamports of fee, 1,000,000 moved (the
 * recipient rent-exempt: 890,880 is (128 + 0) x 6,960); with a failing
 * instruction (0x100f4240 lamports, more than the payer has) the fee stays
 * charged and nothing else changes */
static void test_run_charges(void **state) {
  (void)state;
  wb w;
  scp_sol_wire_tx tx;
  scp_sol_wire_msg m;
  scp_sol_tx_result r;
  scp_error err = {0};
  scp_sol_account st[1] = {{{0}, {0}, 3000000, NULL, 0, false}};
  memset(st[0].key, 1, 32);
  for (int fail = 0; fail < 2; fail++) {
    legacy_transfer(&w, false);
    if (fail) w.b[w.n - 5] = 0x10;
    assert_int_equal(scp_sol_wire_decode(w.b, w.n, &tx, &err), SCP_OK);
    assert_int_equal(scp_sol_wire_load(&tx, st, 1, NULL, &m, &err), SCP_OK);
    scp_sol_tx_opts o = {.accts = m.accts, .naccts = m.naccts, .ixs = m.ixs, .nixs = m.nixs,
                         .blockhash = tx.blockhash, .nmsg = m.nmsg, .msg_writable = m.writable, .nreq = tx.nreq};
    assert_int_equal(scp_sol_tx_run(&o, &r, &err), SCP_OK);
    assert_int_equal(r.cu, 150);
    assert_int_equal(r.fee, 5000);
    assert_int_equal(r.failed, fail ? 0 : -1);
    assert_int_equal(m.accts[0].lamports, fail ? 2995000 : 1995000);
    assert_int_equal(m.accts[1].lamports, fail ? 0 : 1000000);
    scp_sol_tx_result_free(&r);
    scp_sol_wire_msg_free(&m);
    scp_sol_wire_free(&tx);
  }
}

static void test_rpc_err(void **state) {
  (void)state;
  scp_sol_tx_result r = {0};
  char buf[128];
  r.failed = -1;
  scp_sol_rpc_err(&r, buf, sizeof buf);
  assert_string_equal(buf, "null");
  r.failed = 1;
  r.ierr = (scp_sol_ierr){SCP_SOL_IERR_CUSTOM, 6};
  scp_sol_rpc_err(&r, buf, sizeof buf);
  assert_string_equal(buf, "{\"InstructionError\":[1,{\"Custom\":6}]}");
  r.failed = -1;
  snprintf(r.txerr, sizeof r.txerr, "InsufficientFundsForRent { account_index: 2 }");
  scp_sol_rpc_err(&r, buf, sizeof buf);
  assert_string_equal(buf, "{\"InsufficientFundsForRent\":{\"account_index\":2}}");
  snprintf(r.txerr, sizeof r.txerr, "DuplicateInstruction { index: 1 }");
  scp_sol_rpc_err(&r, buf, sizeof buf);
  assert_string_equal(buf, "{\"DuplicateInstruction\":1}");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_decode_legacy),
      cmocka_unit_test(test_decode_refusals),
      cmocka_unit_test(test_text),
    cmocka_unit_test(test_text_base58_also_base64),
      cmocka_unit_test(test_lookup_order_and_flags),
      cmocka_unit_test(test_sanitize),
      cmocka_unit_test(test_fee),
      cmocka_unit_test(test_run_charges),
      cmocka_unit_test(test_rpc_err),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
