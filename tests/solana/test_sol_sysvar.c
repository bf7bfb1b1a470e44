/*
 * test_sol_sysvar.c — the sysvar cache: litesvm 1.5.0's default sysvar
 * accounts (the bytes below were read from a fresh litesvm with getAccount:
 * independent evidence), the bincode shapes each sysvar must have (as
 * litesvm's setAccount refuses the others), the accounts rewritten from the
 * cache, warpToSlot, and the "sysvars" object of a scenario with its
 * JSON-path errors (the encodings equal litesvm's setters' in
 * tests/e2e/sol_sysvar.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "solana/scp_sol_sysvar.h"
#include "util/scp_util.h"

static const char *hex(const uint8_t *p, size_t n) {
  static char buf[512];
  size_t i = 0;
  for (; i < n && i < 255; i++) snprintf(buf + 2 * i, 3, "%02x", p[i]);
  buf[2 * i] = 0;
  return buf;
}

static bool zero_from(const uint8_t *p, size_t at, size_t n) {
  for (size_t i = at; i < n; i++)
    if (p[i]) return false;
  return true;
}

static void test_defaults_are_litesvms(void **state) {
  (void)state;
  scp_sol_sysvars s;
  assert_int_equal(scp_sol_sysvars_init(&s), SCP_OK);
  assert_int_equal(s.len[SCP_SOL_SV_CLOCK], 40);
  assert_string_equal(hex(s.data[SCP_SOL_SV_CLOCK], 4), "001aad1a");
  assert_true(zero_from(s.data[SCP_SOL_SV_CLOCK], 4, 40));
  assert_int_equal(s.len[SCP_SOL_SV_RENT], 17);
  assert_string_equal(hex(s.data[SCP_SOL_SV_RENT], 17), "301b000000000000000000000000f03f32");
  assert_int_equal(s.len[SCP_SOL_SV_EPOCH_SCHEDULE], 33);
  assert_string_equal(hex(s.data[SCP_SOL_SV_EPOCH_SCHEDULE], 33),
                      "80970600000000008097060000000000010e00000000000000e0ff070000000000");
  assert_int_equal(s.len[SCP_SOL_SV_EPOCH_REWARDS], 81);
  assert_true(zero_from(s.data[SCP_SOL_SV_EPOCH_REWARDS], 0, 81));
  assert_int_equal(s.len[SCP_SOL_SV_SLOT_HASHES], 20488);
  assert_string_equal(hex(s.data[SCP_SOL_SV_SLOT_HASHES], 48),
                      "0100000000000000001aad1a00000000aeebad4a796fcc2e15dc4c6061b45ed9"
                      "b373f26adfc798ca7d2d8cc58182718e");
  assert_true(zero_from(s.data[SCP_SOL_SV_SLOT_HASHES], 48, 20488));
  assert_int_equal(s.len[SCP_SOL_SV_STAKE_HISTORY], 8);
  assert_int_equal(s.len[SCP_SOL_SV_LAST_RESTART_SLOT], 8);
  assert_int_equal(s.len[SCP_SOL_SV_RECENT_BLOCKHASHES], 48);
  assert_string_equal(hex(s.data[SCP_SOL_SV_RECENT_BLOCKHASHES], 48),
                      "0100000000000000aeebad4a796fcc2e15dc4c6061b45ed9b373f26adfc798ca"
                      "7d2d8cc58182718e0000000000000000");
  assert_int_equal(scp_sol_sysvars_slot(&s), 447552000);
  scp_sol_sysvars_free(&s);
}

static void test_ids(void **state) {
  (void)state;
  for (int k = 0; k < SCP_SOL_SV_COUNT; k++) {
    uint8_t key[32];
    const char *id = scp_sol_sysvar_id((scp_sol_sysvar_kind)k);
    assert_true(scp_sol_key_parse(id, strlen(id), key));
    assert_int_equal(scp_sol_sysvar_kind_of(key), k);
  }
  uint8_t other[32] = {0};
  assert_int_equal(scp_sol_sysvar_kind_of(other), -1);
  assert_string_equal(scp_sol_sysvar_name(SCP_SOL_SV_SLOT_HASHES), "slot_hashes");
}

static void test_shapes(void **state) {
  (void)state;
  scp_sol_sysvars s;
  scp_error err = {0};
  uint8_t d[200] = {0};
  assert_int_equal(scp_sol_sysvars_init(&s), SCP_OK);
  assert_int_equal(scp_sol_sysvars_set(&s, SCP_SOL_SV_CLOCK, d, 39, &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "the Clock sysvar: 39 bytes do not hold one (40 needed)");
  /* trailing bytes are kept, as the sysvar cache keeps the whole account */
  d[0] = 7;
  assert_int_equal(scp_sol_sysvars_set(&s, SCP_SOL_SV_CLOCK, d, 48, &err), SCP_OK);
  assert_int_equal(s.len[SCP_SOL_SV_CLOCK], 48);
  assert_int_equal(scp_sol_sysvars_slot(&s), 7);
  d[16] = 2;   /* EpochSchedule's warmup */
  assert_int_equal(scp_sol_sysvars_set(&s, SCP_SOL_SV_EPOCH_SCHEDULE, d, 33, &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "the EpochSchedule sysvar: byte 16 is a bool, not 2");
  memset(d, 0, sizeof d);
  scp_put_le64(d, 2);   /* two StakeHistory entries need 8 + 64 bytes */
  assert_int_equal(scp_sol_sysvars_set(&s, SCP_SOL_SV_STAKE_HISTORY, d, 71, &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "the StakeHistory sysvar: 71 bytes do not hold 2 entries of 32 bytes");
  assert_int_equal(scp_sol_sysvars_set(&s, SCP_SOL_SV_STAKE_HISTORY, d, 72, &err), SCP_OK);
  assert_int_equal(scp_sol_sysvars_set(&s, SCP_SOL_SV_SLOT_HASHES, d, 4, &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "the SlotHashes sysvar: 4 bytes do not hold a length and 0 entries of 40 bytes");
  scp_sol_sysvars_free(&s);
}

static void test_accounts(void **state) {
  (void)state;
  scp_sol_sysvars s;
  scp_error err = {0};
  assert_int_equal(scp_sol_sysvars_init(&s), SCP_OK);
  scp_sol_account a[2] = {0};
  scp_sol_key_parse("SysvarC1ock11111111111111111111111111111111", 43, a[0].key);
  memset(a[1].key, 5, 32);
  a[0].lamports = 1;
  a[0].data = calloc(1, 40);
  a[0].len = 40;
  a[0].data[0] = 9;
  assert_int_equal(scp_sol_sysvars_from_accounts(&s, a, 2, &err), SCP_OK);
  assert_int_equal(scp_sol_sysvars_slot(&s), 9);
  scp_sol_sysvars_warp(&s, 300);
  assert_int_equal(scp_sol_sysvars_to_accounts(&s, a, 2), SCP_OK);
  assert_int_equal(scp_le64(a[0].data), 300);
  char owner[SCP_SOL_B58_KEY_MAX];
  scp_sol_key_str(a[0].owner, owner);
  assert_string_equal(owner, "Sysvar1111111111111111111111111111111111111");
  assert_null(a[1].data);   /* not a sysvar: untouched */
  a[0].len = 3;
  assert_int_equal(scp_sol_sysvars_from_accounts(&s, a, 2, &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "account SysvarC1ock11111111111111111111111111111111: the Clock sysvar: "
                               "3 bytes do not hold one (40 needed)");
  scp_sol_account_free(&a[0]);
  scp_sol_sysvars_free(&s);
}

static int apply(scp_sol_sysvars *s, const char *text, scp_error *err) {
  json_error_t je;
  json_t *j = json_loads(text, 0, &je);
  assert_non_null(j);
  int rc = scp_sol_sysvars_json(s, j, "f.json", err);
  json_decref(j);
  return rc;
}

static void test_json(void **state) {
  (void)state;
  scp_sol_sysvars s;
  scp_error err = {0};
  assert_int_equal(scp_sol_sysvars_init(&s), SCP_OK);
  assert_int_equal(apply(&s, "{\"clock\": {\"slot\": 1001, \"unix_timestamp\": -5},"
                             " \"rent\": {\"lamports_per_byte_year\": 3480, \"exemption_threshold\": 2.0},"
                             " \"slot_hashes\": [[1000, \"11111111111111111111111111111111\"]],"
                             " \"stake_history\": [[5, 1, 2, 3], [4, 7, 8, 9]],"
                             " \"epoch_rewards\": {\"active\": true, \"total_points\": 12},"
                             " \"last_restart_slot\": 9}", &err), SCP_OK);
  /* the bytes litesvm's setClock / setRent / setStakeHistory write */
  assert_string_equal(hex(s.data[SCP_SOL_SV_CLOCK], 40),
                      "e903000000000000000000000000000000000000000000000000000000000000fbffffffffffffff");
  assert_string_equal(hex(s.data[SCP_SOL_SV_RENT], 17), "980d000000000000000000000000004032");
  assert_int_equal(s.len[SCP_SOL_SV_STAKE_HISTORY], 72);
  assert_string_equal(hex(s.data[SCP_SOL_SV_STAKE_HISTORY], 72),
                      "0200000000000000050000000000000001000000000000000200000000000000"
                      "0300000000000000040000000000000007000000000000000800000000000000"
                      "0900000000000000");
  assert_int_equal(s.len[SCP_SOL_SV_SLOT_HASHES], 20488);
  assert_string_equal(hex(s.data[SCP_SOL_SV_SLOT_HASHES], 16), "0100000000000000e803000000000000");
  assert_int_equal(s.data[SCP_SOL_SV_EPOCH_REWARDS][80], 1);
  assert_int_equal(s.data[SCP_SOL_SV_EPOCH_REWARDS][48], 12);
  assert_int_equal(s.data[SCP_SOL_SV_LAST_RESTART_SLOT][0], 9);
  assert_int_equal(apply(&s, "{\"clock\": {\"slot\": \"1\"}}", &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "f.json: sysvars.clock.slot: not an integer");
  assert_int_equal(apply(&s, "{\"stake_history\": [[4, 1, 2, 3], [4, 1, 2, 3]]}", &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "f.json: sysvars.stake_history[1]: epochs go newest first, each below the one before");
  assert_int_equal(apply(&s, "{\"recent_blockhashes\": []}", &err), SCP_ERR_MALFORMED);
  assert_int_equal(apply(&s, "{\"rent\": {\"exemption_threshold\": -1}}", &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "f.json: sysvars.rent.exemption_threshold: not a finite non-negative number");
  assert_int_equal(apply(&s, "[]", &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "f.json: sysvars: not an object");
  scp_sol_sysvars_free(&s);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_defaults_are_litesvms), cmocka_unit_test(test_ids), cmocka_unit_test(test_shapes),
    cmocka_unit_test(test_accounts), cmocka_unit_test(test_json),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
