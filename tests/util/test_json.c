/*
 * test_json.c — JSON read exactly: integers beyond int64 kept as their
 * digits, positions in errors counted in the text as given, integer
 * readers at their limits, unknown keys refused with a suggestion.
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

static json_t *parse(const char *text, scp_error *err) {
  json_t *j = NULL;
  int rc = scp_json_parse((const uint8_t *)text, strlen(text), "t.json", &j, err);
  assert_true(rc == SCP_OK || j == NULL);
  return j;
}

static void test_big_integers_exact(void **state) {
  (void)state;
  scp_error err = {0};
  /* u64::MAX as the solana CLI prints rentEpoch, i64's edges, an i128 part */
  json_t *j = parse("{\"rentEpoch\": 18446744073709551615, \"a\": 9223372036854775807,"
                    " \"b\": -9223372036854775808, \"c\": 9223372036854775808,"
                    " \"d\": -170141183460469231731687303715884105728, \"s\": \"1 2 99999999999999999999\","
                    " \"g\": 0.5, \"l\": [18446744073709551616]}",
                    &err);
  assert_non_null(j);
  uint64_t u;
  int64_t i;
  assert_true(scp_json_u64(json_object_get(j, "rentEpoch"), &u) && u == UINT64_MAX);
  assert_true(json_is_integer(json_object_get(j, "a")));   /* fits: still a number */
  assert_true(scp_json_i64(json_object_get(j, "a"), &i) && i == INT64_MAX);
  assert_true(scp_json_i64(json_object_get(j, "b"), &i) && i == INT64_MIN);
  assert_true(scp_json_u64(json_object_get(j, "c"), &u) && u == (uint64_t)INT64_MAX + 1);
  assert_false(scp_json_i64(json_object_get(j, "c"), &i));
  char buf[64];
  assert_true(scp_json_int_text(json_object_get(j, "d"), buf, sizeof buf));
  assert_string_equal(buf, "-170141183460469231731687303715884105728");
  /* digits inside a string are not touched */
  assert_string_equal(json_string_value(json_object_get(j, "s")), "1 2 99999999999999999999");
  assert_true(json_is_real(json_object_get(j, "g")));
  assert_false(scp_json_u64(json_object_get(j, "g"), &u));
  /* one past u64::MAX: the digits survive, the u64 reader refuses them */
  json_t *l0 = json_array_get(json_object_get(j, "l"), 0);
  assert_false(scp_json_u64(l0, &u));
  assert_true(scp_json_int_text(l0, buf, sizeof buf));
  assert_string_equal(buf, "18446744073709551616");
  json_decref(j);
}

static void test_integer_readers(void **state) {
  (void)state;
  uint64_t u = 7;
  int64_t i = 7;
  json_t *v;
  const char *bad_u[] = {"-1", "+1", " 1", "1 ", "", "0x10", "18446744073709551616", "1.0"};
  for (size_t k = 0; k < sizeof bad_u / sizeof *bad_u; k++) {
    v = json_string(bad_u[k]);
    assert_false(scp_json_u64(v, &u));
    json_decref(v);
  }
  assert_int_equal(u, 7);
  v = json_string("00042");
  assert_true(scp_json_u64(v, &u) && u == 42);
  json_decref(v);
  v = json_integer(-1);
  assert_false(scp_json_u64(v, &u));
  assert_true(scp_json_i64(v, &i) && i == -1);
  json_decref(v);
  v = json_string("-9223372036854775809");
  assert_false(scp_json_i64(v, &i));
  json_decref(v);
  v = json_true();
  assert_false(scp_json_u64(v, &u) || scp_json_i64(v, &i));
  json_decref(v);
}

static void test_error_positions(void **state) {
  (void)state;
  scp_error err = {0};
  /* the bad token stands after a quoted big number on the same line: the
   * column is the one in the file, not in the rewritten text */
  assert_null(parse("{\"a\": 18446744073709551615, \"b\": tru}", &err));
  assert_non_null(strstr(err.msg, "t.json: line 1 column "));
  int col = atoi(strstr(err.msg, "column ") + 7);
  assert_in_range(col, 34, 37);
  err.msg[0] = 0;
  assert_null(parse("{\n \"a\": 1,\n \"a\": 2}", &err));
  assert_non_null(strstr(err.msg, "line 3"));
  assert_non_null(strstr(err.msg, "duplicate"));
}

static void test_keys(void **state) {
  (void)state;
  static const char *const known[] = {"pubkey", "signer", "writable", "lamports", "rent_epoch", NULL};
  assert_string_equal(scp_json_nearest("is_signer", known), "signer");
  assert_string_equal(scp_json_nearest("rentEpoch", known), "rent_epoch");
  assert_string_equal(scp_json_nearest("lamport", known), "lamports");
  assert_string_equal(scp_json_nearest("Writable", known), "writable");
  assert_null(scp_json_nearest("zzz", known));
  assert_null(scp_json_nearest("data", known));
  scp_error err = {0};
  json_t *j = parse("{\"pubkey\": \"x\", \"is_signer\": true}", &err);
  assert_int_equal(scp_json_check_keys(j, known, "s.json", "transactions[0].accounts[2]", &err),
                   SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "s.json: transactions[0].accounts[2]: unknown key \"is_signer\"; "
                               "did you mean \"signer\"?");
  json_decref(j);
  j = parse("{\"pubkey\": \"x\", \"colour\": 1}", &err);
  assert_int_equal(scp_json_check_keys(j, known, "s.json", NULL, &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "s.json: unknown key \"colour\"");
  json_decref(j);
  j = parse("{\"pubkey\": \"x\", \"signer\": true}", &err);
  assert_int_equal(scp_json_check_keys(j, known, "s.json", "a", &err), SCP_OK);
  json_decref(j);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_big_integers_exact),
    cmocka_unit_test(test_integer_readers),
    cmocka_unit_test(test_error_positions),
    cmocka_unit_test(test_keys),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
