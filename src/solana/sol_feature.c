/* sol_feature.c — the feature gates the Solana model depends on
 * (scp_sol_feature.h).  Ids from agave-feature-set; litesvm 1.5.0's state
 * read from its own snapshot (tests/oracle/env.js). */
#include <jansson.h>
#include <string.h>
#include "solana/scp_sol_feature.h"
#include "util/scp_util.h"

static const struct {
  const char *name, *id;
  bool litesvm;        /* on in litesvm 1.5.0 */
} GATES[SCP_SOL_F_COUNT] = {
  /* a VM fault (not a syscall's error) consumes the whole remaining CU */
  {.name = "deplete_cu_meter_on_vm_failure", .id = "B7H2caeia4ZFcpE3QcgMqbiWiBtWrdBRBSJ1DY6Ktxbq", .litesvm = true},
  /* sol_remaining_compute_units is registered: syscall_base_cost, r0 the CU left */
  {.name = "remaining_compute_units_syscall_enabled", .id = "5TuppMutoyzhUSfuYdhgzD47F92GL1g89KpCZQKqedxP",
   .litesvm = false},
  /* sol_get_sysvar is registered */
  {.name = "get_sysvar_syscall_enabled", .id = "CLCoTADvV64PSrnR6QXty6Fwrt9Xc6EdxSJE4wLRePjq", .litesvm = true},
  /* the instruction stack holds 9 (8 nested CPIs) instead of 5 */
  {.name = "raise_cpi_nesting_limit_to_8", .id = "6TkHkRmP7JZy1fdM6fg5uXn76wChQBWGokHBJzrLB3mj", .litesvm = false},
};

/* Gates agave 4.3 no longer reads: their feature-conditional code was
 * removed once they were active on every cluster (agave pulls 11121 and
 * 11423, merged to master before it became 4.3 in June 2026), so on and
 * off run the same, as litesvm 1.5.0 does with either state set
 * (tests/e2e/sol_feature.sh). */
static const struct {
  const char *name, *id;
} UNREAD[] = {
  /* SIMD-0339: invoke_units 946, 34 bytes per account meta and 80 per
   * account info charged per cpi_bytes_per_unit, at most 255 infos */
  {.name = "increase_cpi_account_info_limit", .id = "H6iVbVaDZgDphcPbcZwc5LoznMPWQfnJ1AM7L1xzqvt5"},
  /* SIMD-0321: r2 holds the instruction data's address */
  {.name = "provide_instruction_data_offset_in_vm_r2", .id = "5xXZc66h4UdB6Yq7FzdBxBiRAFMMScMLwHxk2QZDaNZL"},
};

/* Gates the model depends on but cannot change, and why. */
static const struct {
  const char *name, *id, *why;
} FIXED[] = {
  {.name = "mask_out_rent_epoch_in_vm_serialization", .id = "RENtePQcDLrAbxAsP3k8dwVcnNYQ466hi2uKvALjnXx",
   .why = "accounts carry no rent_epoch in scprof; it is serialized as u64::MAX"},
};

void scp_sol_features_default(scp_sol_features *f) {
  for (int k = 0; k < SCP_SOL_F_COUNT; k++) f->on[k] = GATES[k].litesvm;
}

bool scp_sol_feature_on(const scp_sol_features *f, scp_sol_feature k) {
  return f ? f->on[k] : GATES[k].litesvm;
}

const char *scp_sol_feature_name(scp_sol_feature k) { return GATES[k].name; }
const char *scp_sol_feature_id(scp_sol_feature k) { return GATES[k].id; }

static bool is(const char *s, const char *gate, size_t len) { return strlen(s) == len && !memcmp(s, gate, len); }

int scp_sol_feature_set(scp_sol_features *f, const char *gate, size_t len, bool on, scp_error *err) {
  for (int k = 0; k < SCP_SOL_F_COUNT; k++)
    if (is(GATES[k].name, gate, len) || is(GATES[k].id, gate, len)) {
      f->on[k] = on;
      return SCP_OK;
    }
  for (size_t i = 0; i < SCP_ARRAY_LEN(UNREAD); i++)
    if (is(UNREAD[i].name, gate, len) || is(UNREAD[i].id, gate, len)) return SCP_OK;
  for (size_t i = 0; i < SCP_ARRAY_LEN(FIXED); i++)
    if (is(FIXED[i].name, gate, len) || is(FIXED[i].id, gate, len))
      return scp_fail(err, SCP_ERR_ARG, "feature %s: not modelled: %s", FIXED[i].name, FIXED[i].why);
  return scp_fail(err, SCP_ERR_ARG,
                  "feature %.*s: not a gate scprof models (deplete_cu_meter_on_vm_failure, "
                  "remaining_compute_units_syscall_enabled, "
                  "get_sysvar_syscall_enabled, raise_cpi_nesting_limit_to_8, "
                  "increase_cpi_account_info_limit, provide_instruction_data_offset_in_vm_r2, or their ids)",
                  (int)(len > 64 ? 64 : len), gate);
}

int scp_sol_feature_parse(scp_sol_features *f, const char *spec, scp_error *err) {
  const char *eq = strrchr(spec, '=');
  if (!eq || (strcmp(eq + 1, "on") && strcmp(eq + 1, "off")))
    return scp_fail(err, SCP_ERR_USAGE, "--feature %s: want ID|NAME=on|off", spec);
  return scp_sol_feature_set(f, spec, (size_t)(eq - spec), !strcmp(eq + 1, "on"), err);
}

int scp_sol_features_json(scp_sol_features *f, const void *json, const char *file, scp_error *err) {
  json_t *obj = (json_t *)json;
  if (!json_is_object(obj)) return scp_fail(err, SCP_ERR_MALFORMED, "%s: features: not an object", file);
  const char *key;
  json_t *v;
  json_object_foreach(obj, key, v) {
    if (!json_is_boolean(v))
      return scp_fail(err, SCP_ERR_MALFORMED, "%s: features.%s: not true or false", file, key);
    scp_error why = {0};
    if (scp_sol_feature_set(f, key, strlen(key), json_is_true(v), &why))
      return scp_fail(err, SCP_ERR_MALFORMED, "%s: features.%s: %s", file, key, why.msg);
  }
  return SCP_OK;
}

bool scp_sol_features_syscall(const scp_sol_features *f, const char *name) {
  if (!strcmp(name, "sol_remaining_compute_units")) return scp_sol_feature_on(f, SCP_SOL_F_REMAINING_CU_SYSCALL);
  if (!strcmp(name, "sol_get_sysvar")) return scp_sol_feature_on(f, SCP_SOL_F_GET_SYSVAR_SYSCALL);
  return true;
}
