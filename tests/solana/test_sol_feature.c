/*
 * test_sol_feature.c — the feature-gate table: litesvm 1.5.0's states (read
 * from its snapshot by tests/oracle/env.js), gates set by name and by id,
 * the refusals naming the gate, the "features" object's JSON paths, and
 * which syscalls a set registers.  What each gate changes in a run is
 * compared with litesvm in tests/e2e/sol_feature.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <string.h>

#include "solana/scp_sol_feature.h"

static void test_defaults(void **state) {
  (void)state;
  scp_sol_features f;
  scp_sol_features_default(&f);
  assert_true(f.on[SCP_SOL_F_DEPLETE_ON_FAULT]);
  assert_false(f.on[SCP_SOL_F_REMAINING_CU_SYSCALL]);
  assert_true(f.on[SCP_SOL_F_GET_SYSVAR_SYSCALL]);
  assert_false(f.on[SCP_SOL_F_CPI_NESTING_8]);
  for (int k = 0; k < SCP_SOL_F_COUNT; k++) assert_int_equal(scp_sol_feature_on(NULL, k), f.on[k]);
  assert_false(scp_sol_features_syscall(NULL, "sol_remaining_compute_units"));
  assert_true(scp_sol_features_syscall(NULL, "sol_get_sysvar"));
  assert_true(scp_sol_features_syscall(NULL, "sol_log_"));
}

static void test_set(void **state) {
  (void)state;
  scp_sol_features f;
  scp_error err = {0};
  scp_sol_features_default(&f);
  assert_int_equal(scp_sol_feature_parse(&f, "remaining_compute_units_syscall_enabled=on", &err), SCP_OK);
  assert_true(scp_sol_features_syscall(&f, "sol_remaining_compute_units"));
  assert_int_equal(scp_sol_feature_parse(&f, "B7H2caeia4ZFcpE3QcgMqbiWiBtWrdBRBSJ1DY6Ktxbq=off", &err), SCP_OK);
  assert_false(f.on[SCP_SOL_F_DEPLETE_ON_FAULT]);
  assert_string_equal(scp_sol_feature_id(SCP_SOL_F_CPI_NESTING_8), "6TkHkRmP7JZy1fdM6fg5uXn76wChQBWGokHBJzrLB3mj");
  assert_string_equal(scp_sol_feature_name(SCP_SOL_F_GET_SYSVAR_SYSCALL), "get_sysvar_syscall_enabled");
  assert_int_equal(scp_sol_feature_parse(&f, "raise_cpi_nesting_limit_to_8", &err), SCP_ERR_USAGE);
  assert_string_equal(err.msg, "--feature raise_cpi_nesting_limit_to_8: want ID|NAME=on|off");
  assert_int_equal(scp_sol_feature_parse(&f, "raise_cpi_nesting_limit_to_8=yes", &err), SCP_ERR_USAGE);
  assert_int_equal(scp_sol_feature_parse(&f, "enable_sha512_syscall=on", &err), SCP_ERR_ARG);
  assert_non_null(strstr(err.msg, "feature enable_sha512_syscall: not a gate scprof models"));
  /* gates agave 4.3 no longer reads: taken, nothing changes */
  scp_sol_features before = f;
  assert_int_equal(scp_sol_feature_parse(&f, "H6iVbVaDZgDphcPbcZwc5LoznMPWQfnJ1AM7L1xzqvt5=off", &err), SCP_OK);
  assert_int_equal(scp_sol_feature_parse(&f, "provide_instruction_data_offset_in_vm_r2=off", &err), SCP_OK);
  assert_memory_equal(&before, &f, sizeof f);
  assert_int_equal(scp_sol_feature_parse(&f, "mask_out_rent_epoch_in_vm_serialization=off", &err), SCP_ERR_ARG);
  assert_non_null(strstr(err.msg, "feature mask_out_rent_epoch_in_vm_serialization: not modelled: accounts carry"));
  /* a prefix of a name is not the name */
  assert_int_equal(scp_sol_feature_parse(&f, "deplete_cu_meter=on", &err), SCP_ERR_ARG);
}

static int apply(scp_sol_features *f, const char *text, scp_error *err) {
  json_error_t je;
  json_t *j = json_loads(text, 0, &je);
  assert_non_null(j);
  int rc = scp_sol_features_json(f, j, "f.json", err);
  json_decref(j);
  return rc;
}

static void test_json(void **state) {
  (void)state;
  scp_sol_features f;
  scp_error err = {0};
  scp_sol_features_default(&f);
  assert_int_equal(apply(&f, "{\"raise_cpi_nesting_limit_to_8\": true, \"CLCoTADvV64PSrnR6QXty6Fwrt9Xc6EdxSJE4wLRePjq\": false}",
                         &err), SCP_OK);
  assert_true(f.on[SCP_SOL_F_CPI_NESTING_8]);
  assert_false(scp_sol_features_syscall(&f, "sol_get_sysvar"));
  assert_int_equal(apply(&f, "{\"raise_cpi_nesting_limit_to_8\": 1}", &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "f.json: features.raise_cpi_nesting_limit_to_8: not true or false");
  assert_int_equal(apply(&f, "{\"nope\": true}", &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "f.json: features.nope: feature nope: not a gate scprof models"));
  assert_int_equal(apply(&f, "[]", &err), SCP_ERR_MALFORMED);
  assert_string_equal(err.msg, "f.json: features: not an object");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_defaults), cmocka_unit_test(test_set), cmocka_unit_test(test_json),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
