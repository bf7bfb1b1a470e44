/*
 * test_sol_state.c — account files read exactly (sol_state.c): each form
 * with u64::MAX where the tools print it, the address of an RPC reply from
 * the name or the ADDR,...= prefix, programs deployed as accounts, and
 * each refusal naming the file, the JSON path and the problem.  The
 * expected bytes and numbers are the ones written into the JSON here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "solana/scp_sol_state.h"

#define K1 "4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi"   /* [1; 32] */
#define K3 "CktRuQ2mttgRGkXJtyksdKHjUdc2C4TgDzyB98oEzy8"   /* [3; 32] */
#define SYS "11111111111111111111111111111111"

static int add(scp_sol_state *st, const char *text, const char *name, size_t nkeys, scp_error *err) {
  uint8_t keys[2][32];
  memset(keys[0], 1, 32);
  memset(keys[1], 3, 32);
  return scp_sol_state_add_bytes(st, (const uint8_t *)text, strlen(text), name, (const uint8_t(*)[32])keys,
                                 nkeys, err);
}

static const scp_sol_account *get(const scp_sol_state *st, int fill) {
  uint8_t k[32];
  memset(k, fill, 32);
  return scp_sol_state_get(st, k);
}

static void test_cli_form(void **state) {
  (void)state;
  scp_sol_state st = {0};
  scp_error err = {0};
  assert_int_equal(add(&st, "{\"pubkey\": \"" K1 "\", \"account\": {\"lamports\": 18446744073709551615,"
                            " \"data\": [\"AQID\", \"base64\"], \"owner\": \"" SYS "\", \"executable\": true,"
                            " \"rentEpoch\": 18446744073709551615, \"space\": 3}}", "a.json", 0, &err), SCP_OK);
  /* base58 and base64+zstd data (the zstd frame of "abc" x 9, from the zstd command) */
  assert_int_equal(add(&st, "[{\"pubkey\": \"" K3 "\", \"account\": {\"lamports\": \"5\", \"data\": [\"2g\", \"base58\"],"
                            " \"owner\": \"" SYS "\", \"executable\": false, \"rentEpoch\": 0}}]", "b.json", 0, &err), SCP_OK);
  assert_int_equal(st.n, 2);
  const scp_sol_account *a = get(&st, 1), *b = get(&st, 3);
  assert_non_null(a);
  assert_true(a->lamports == UINT64_MAX && a->executable && a->len == 3 && !memcmp(a->data, "\1\2\3", 3));
  assert_true(b->lamports == 5 && !b->executable && b->len == 1 && b->data[0] == 'a');
  /* the same account again: kept once; other contents: refused */
  assert_int_equal(add(&st, "{\"pubkey\": \"" K3 "\", \"account\": {\"lamports\": 5, \"data\": [\"YQ==\", \"base64\"],"
                            " \"owner\": \"" SYS "\", \"executable\": false}}", "c.json", 0, &err), SCP_OK);
  assert_int_equal(st.n, 2);
  assert_int_equal(add(&st, "{\"pubkey\": \"" K3 "\", \"account\": {\"lamports\": 6, \"data\": [\"YQ==\", \"base64\"],"
                            " \"owner\": \"" SYS "\", \"executable\": false}}", "d.json", 0, &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "d.json: account: account " K3 " given twice with different contents");
  scp_sol_state_free(&st);
}

static void test_rpc_forms(void **state) {
  (void)state;
  scp_sol_state st = {0};
  scp_error err = {0};
  const char *info = "{\"context\": {\"slot\": 1}, \"value\": {\"lamports\": 7, \"data\": [\"KLUv/QRYTQAAGGFiYwEAgm4I4qowjg==\","
                     " \"base64+zstd\"], \"owner\": \"" SYS "\", \"executable\": false, \"rentEpoch\": 0, \"space\": 27}}";
  assert_int_equal(add(&st, info, "dir/" K1 ".json", 0, &err), SCP_OK);
  const scp_sol_account *a = get(&st, 1);
  assert_true(a && a->lamports == 7 && a->len == 27 && !memcmp(a->data, "abcabcabc", 9));
  assert_int_equal(add(&st, info, "x.json", 0, &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "x.json: value: a getAccountInfo reply does not say whose account it is: give "
                               "ADDR=x.json or name the file ADDR.json");
  const char *multi = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"context\": {\"slot\": 1}, \"value\": [null,"
                      " {\"lamports\": 9, \"data\": [\"\", \"base64\"], \"owner\": \"" K1 "\", \"executable\": false,"
                      " \"rentEpoch\": 361}]}}";
  assert_int_equal(add(&st, multi, "m.json", 1, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "m.json: result.value: a getMultipleAccounts reply of 2 accounts wants their 2 addresses"));
  assert_int_equal(add(&st, multi, "m.json", 2, &err), SCP_OK);
  const scp_sol_account *b = get(&st, 3);
  assert_true(b && b->lamports == 9 && b->len == 0 && b->owner[0] == 1);
  assert_int_equal(st.n, 2);   /* the null entry: an account that does not exist */
  scp_sol_state_free(&st);
}

static void test_seashell_and_programs(void **state) {
  (void)state;
  scp_sol_state st = {0};
  scp_error err = {0};
  /* an upgradeable program [1; 32] whose programdata is [3; 32] */
  char text[1024];
  snprintf(text, sizeof text,
           "{\"" K1 "\": {\"lamports\": 1, \"data\": \"02000000%s\", \"owner\": \"BPFLoaderUpgradeab1e11111111111111111111111\","
           " \"executable\": true, \"rent_epoch\": \"18446744073709551615\"},"
           " \"" K3 "\": {\"lamports\": 1, \"data\": \"03000000%0*d7f454c46\", \"owner\": \"BPFLoaderUpgradeab1e11111111111111111111111\","
           " \"executable\": false, \"rent_epoch\": 0}}",
           "0303030303030303030303030303030303030303030303030303030303030303", 82, 0);
  assert_int_equal(add(&st, text, "scenarios/x.json", 0, &err), SCP_OK);
  const uint8_t *elf;
  size_t len;
  scp_sol_loader loader;
  uint8_t id[32];
  memset(id, 1, 32);
  assert_true(scp_sol_state_program(&st, id, &elf, &len, &loader));
  assert_int_equal(len, 4);
  assert_memory_equal(elf, "\177ELF", 4);
  assert_int_equal(loader, SCP_SOL_LOADER_V3);
  memset(id, 3, 32);
  assert_false(scp_sol_state_program(&st, id, &elf, &len, &loader));   /* programdata is no program */
  scp_sol_state_free(&st);
}

static void test_refusals(void **state) {
  (void)state;
  static const struct { const char *text, *msg; } cases[] = {
      {"{\"pubkey\": \"" K1 "\", \"account\": {\"lamports\": 1, \"data\": [\"\", \"base64\"], \"owner\": \"" SYS "\","
       " \"executable\": false, \"is_signer\": true}}",
       "r.json: account: unknown key \"is_signer\""},
      {"{\"pubkey\": \"" K1 "\", \"account\": {\"lamports\": 18446744073709551616, \"data\": [\"\", \"base64\"],"
       " \"owner\": \"" SYS "\", \"executable\": false}}",
       "r.json: account.lamports: not an integer from 0 to 18446744073709551615"},
      {"{\"pubkey\": \"" K1 "\", \"account\": {\"lamports\": 1, \"data\": \"AQID\", \"owner\": \"" SYS "\","
       " \"executable\": false}}",
       "r.json: account.data: a bare string is the RPC's legacy binary encoding; ask for \"encoding\": \"base64\""},
      {"{\"pubkey\": \"" K1 "\", \"account\": {\"lamports\": 1, \"data\": [\"AQID\", \"hex\"], \"owner\": \"" SYS "\","
       " \"executable\": false}}",
       "r.json: account.data: encoding \"hex\" is not base64, base58 or base64+zstd"},
      {"{\"pubkey\": \"" K1 "\", \"account\": {\"lamports\": 1, \"data\": [\"AQID\", \"base64\"], \"owner\": \"" SYS "\"}}",
       "r.json: account: no \"executable\""},
      {"{\"pubkey\": \"" K1 "\", \"account\": {\"lamports\": 1, \"data\": [\"AQID\", \"base64\"], \"owner\": \"" SYS "\","
       " \"executable\": \"no\"}}",
       "r.json: account.executable: true or false"},
      {"{\"jsonrpc\": \"2.0\", \"id\": 1, \"error\": {\"code\": -32602}}", "r.json: an RPC error reply, not an account"},
      {"{\"notakey\": {}}", "r.json: unknown key \"notakey\""},
      {"7", "r.json: want an object or an array"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    scp_sol_state st = {0};
    scp_error err = {0};
    assert_int_equal(add(&st, cases[i].text, "r.json", 0, &err), SCP_ERR_MALFORMED);
    if (strncmp(err.msg, cases[i].msg, strlen(cases[i].msg))) fail_msg("case %zu: %s", i, err.msg);
    scp_sol_state_free(&st);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cli_form),
      cmocka_unit_test(test_rpc_forms),
      cmocka_unit_test(test_seashell_and_programs),
      cmocka_unit_test(test_refusals),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
