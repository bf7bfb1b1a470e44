/*
 * net.c — the shipped network profiles and the settings-file reader.
 *
 * Each profile says where every value was read.  Both networks ran
 * protocol 23 with these fee rates; the file reader takes the JSON that
 * stellar-core publishes for settings upgrades, so a user can profile
 * against a proposed upgrade or a private network.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/fee/scp_fee_net.h"
#include "util/scp_util.h"

static const char *const limit_names[SCP_FEE_LIM_COUNT] = {
  "tx_max_instructions", "tx_memory_limit", "tx_max_disk_read_entries",
  "tx_max_disk_read_bytes", "tx_max_write_ledger_entries", "tx_max_write_bytes",
  "tx_max_footprint_entries", "tx_max_contract_events_size_bytes", "tx_max_size_bytes",
  "contract_data_key_size_bytes", "contract_data_entry_size_bytes", "contract_max_size_bytes",
};

const char *scp_fee_limit_name(scp_fee_limit_id id) {
  return id < SCP_FEE_LIM_COUNT ? limit_names[id] : "?";
}

/* The rates both networks had under protocol 23 (developers.stellar.org,
 * "Resource Limits & Fees"; the settings files below agree). */
#define P23_FEES {25, 6250, 10000, 1786, 3500, 16235, 10000, 1624}
#define P23_RENT_WRITE {3000000000, -17000, 10000, 5000}

static const scp_fee_network profiles[] = {
  {
    .name = "mainnet",
    .source = "mainnet ConfigSettingEntry values as stellar/laboratory's "
              "scripts/fetch-network-limits.mjs read them from mainnet RPC "
              "(src/constants/networkLimits.ts, commit 3a671976, 2026-01-12; "
              "live_soroban_state_size_window averaged); tx_max_size_bytes from "
              "developers.stellar.org/docs/networks/resource-limits-fees (132 KB); "
              "contract_data_entry_size_bytes from networkLimits.ts at commit "
              "62e959ed (2026-07-24)",
    .fee = P23_FEES,
    .rent_write = P23_RENT_WRITE,
    .persistent_rent_rate_denominator = 1215,
    .temporary_rent_rate_denominator = 2430,
    .min_persistent_ttl = 2073600,
    .min_temporary_ttl = 17280,
    .max_entry_ttl = 3110400,
    .soroban_state_size = 553688657,
    .limit = {100000000, 41943040, 100, 200000, 50, 132096, 100, 16384, 132096, 250, 65536,
              131072},
  },
  {
    .name = "testnet",
    .source = "stellar/stellar-core soroban-settings/testnet_settings_upgrade.json "
              "(commit 54d67ffcd, 2025-08-14, protocol 23); state size: the testnet "
              "live_soroban_state_size_window average in stellar/laboratory's "
              "src/constants/networkLimits.ts (commit 3a671976, 2026-01-12)",
    .fee = P23_FEES,
    .rent_write = P23_RENT_WRITE,
    .persistent_rent_rate_denominator = 1215,
    .temporary_rent_rate_denominator = 2430,
    .min_persistent_ttl = 120960,
    .min_temporary_ttl = 720,
    .max_entry_ttl = 3110400,
    .soroban_state_size = 258144068,
    .limit = {100000000, 41943040, 100, 200000, 50, 132096, 100, 16384, 132096, 250, 65536,
              131072},
  },
};

bool scp_fee_network_named(const char *name, scp_fee_network *out) {
  for (size_t i = 0; i < SCP_ARRAY_LEN(profiles); i++)
    if (!strcmp(profiles[i].name, name)) {
      *out = profiles[i];
      return true;
    }
  return false;
}

const char *scp_fee_network_names(void) { return "mainnet, testnet"; }

void scp_fee_network_rent(const scp_fee_network *net, scp_fee_rent_config *out) {
  uint64_t s = net->soroban_state_size;
  out->fee_per_write_1kb = net->fee.fee_per_write_1kb;
  out->fee_per_rent_1kb = scp_fee_rent_write_per_1kb(s > INT64_MAX ? INT64_MAX : (int64_t)s,
                                                     &net->rent_write);
  out->fee_per_write_entry = net->fee.fee_per_write_entry;
  out->persistent_rent_rate_denominator = net->persistent_rent_rate_denominator;
  out->temporary_rent_rate_denominator = net->temporary_rent_rate_denominator;
}

/* ---- the settings file ----------------------------------------------------- */

typedef enum { T_I64, T_U32, T_U64 } vtype;

/* One field the reader knows: setting (NULL: a bare-number setting whose
 * name is field), field, type and where it goes. */
typedef struct field {
  const char *setting, *field;
  vtype t;
  size_t off;
} field;

#define N(m) offsetof(scp_fee_network, m)
#define L(id) (offsetof(scp_fee_network, limit) + (id) * sizeof(uint64_t))
static const field fields[] = {
  {"contract_compute_v0", "tx_max_instructions", T_U64, L(SCP_FEE_LIM_INSTRUCTIONS)},
  {"contract_compute_v0", "fee_rate_per_instructions_increment", T_I64, N(fee.fee_per_instruction_increment)},
  {"contract_compute_v0", "tx_memory_limit", T_U64, L(SCP_FEE_LIM_MEMORY)},
  {"contract_ledger_cost_v0", "tx_max_disk_read_entries", T_U64, L(SCP_FEE_LIM_DISK_READ_ENTRIES)},
  {"contract_ledger_cost_v0", "tx_max_disk_read_bytes", T_U64, L(SCP_FEE_LIM_DISK_READ_BYTES)},
  {"contract_ledger_cost_v0", "tx_max_write_ledger_entries", T_U64, L(SCP_FEE_LIM_WRITE_ENTRIES)},
  {"contract_ledger_cost_v0", "tx_max_write_bytes", T_U64, L(SCP_FEE_LIM_WRITE_BYTES)},
  {"contract_ledger_cost_v0", "fee_disk_read_ledger_entry", T_I64, N(fee.fee_per_disk_read_entry)},
  {"contract_ledger_cost_v0", "fee_write_ledger_entry", T_I64, N(fee.fee_per_write_entry)},
  {"contract_ledger_cost_v0", "fee_disk_read1_kb", T_I64, N(fee.fee_per_disk_read_1kb)},
  {"contract_ledger_cost_v0", "soroban_state_target_size_bytes", T_I64, N(rent_write.state_target_size_bytes)},
  {"contract_ledger_cost_v0", "rent_fee1_kb_soroban_state_size_low", T_I64, N(rent_write.rent_fee_1kb_state_size_low)},
  {"contract_ledger_cost_v0", "rent_fee1_kb_soroban_state_size_high", T_I64, N(rent_write.rent_fee_1kb_state_size_high)},
  {"contract_ledger_cost_v0", "soroban_state_rent_fee_growth_factor", T_U32, N(rent_write.state_size_rent_fee_growth_factor)},
  {"contract_historical_data_v0", "fee_historical1_kb", T_I64, N(fee.fee_per_historical_1kb)},
  {"contract_events_v0", "tx_max_contract_events_size_bytes", T_U64, L(SCP_FEE_LIM_EVENTS_SIZE)},
  {"contract_events_v0", "fee_contract_events1_kb", T_I64, N(fee.fee_per_contract_event_1kb)},
  {"contract_bandwidth_v0", "tx_max_size_bytes", T_U64, L(SCP_FEE_LIM_TX_SIZE)},
  {"contract_bandwidth_v0", "fee_tx_size1_kb", T_I64, N(fee.fee_per_transaction_size_1kb)},
  {"state_archival", "max_entry_ttl", T_U32, N(max_entry_ttl)},
  {"state_archival", "min_temporary_ttl", T_U32, N(min_temporary_ttl)},
  {"state_archival", "min_persistent_ttl", T_U32, N(min_persistent_ttl)},
  {"state_archival", "persistent_rent_rate_denominator", T_I64, N(persistent_rent_rate_denominator)},
  {"state_archival", "temp_rent_rate_denominator", T_I64, N(temporary_rent_rate_denominator)},
  {"contract_ledger_cost_ext_v0", "tx_max_footprint_entries", T_U64, L(SCP_FEE_LIM_FOOTPRINT_ENTRIES)},
  {"contract_ledger_cost_ext_v0", "fee_write1_kb", T_I64, N(fee.fee_per_write_1kb)},
  {NULL, "contract_data_key_size_bytes", T_U64, L(SCP_FEE_LIM_DATA_KEY_SIZE)},
  {NULL, "contract_data_entry_size_bytes", T_U64, L(SCP_FEE_LIM_DATA_ENTRY_SIZE)},
  {NULL, "contract_max_size_bytes", T_U64, L(SCP_FEE_LIM_CODE_SIZE)},
};
#undef N
#undef L

/* stellar-xdr's JSON writes 64-bit integers as strings, 32-bit ones as
 * numbers; either is accepted. */
static bool json_int(const json_t *v, int64_t *out, bool *neg_ok_big) {
  if (json_is_integer(v)) {
    *out = json_integer_value(v);
    *neg_ok_big = false;
    return true;
  }
  if (!json_is_string(v)) return false;
  const char *s = json_string_value(v);
  if (!*s) return false;
  char *end;
  errno = 0;
  if (*s == '-') {
    long long x = strtoll(s, &end, 10);
    if (errno || *end) return false;
    *out = x;
    *neg_ok_big = false;
    return true;
  }
  if (*s < '0' || *s > '9') return false;
  unsigned long long u = strtoull(s, &end, 10);
  if (errno || *end) return false;
  /* a u64 past INT64_MAX is kept as its bits; the type check sorts it */
  *out = (int64_t)u;
  *neg_ok_big = u > INT64_MAX;
  return true;
}

static int set_field(scp_fee_network *n, const field *f, const json_t *v, const char *path,
                     scp_error *err) {
  int64_t x;
  bool big;
  const char *set = f->setting ? f->setting : "", *dot = f->setting ? "." : "";
  if (!json_int(v, &x, &big))
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s%s%s is not an integer", path, set, dot, f->field);
  char *at = (char *)n + f->off;
  switch (f->t) {
  case T_I64:
    if (big) break;
    memcpy(at, &x, sizeof x);
    return SCP_OK;
  case T_U32:
    if (big || x < 0 || x > UINT32_MAX) break;
    {
      uint32_t u = (uint32_t)x;
      memcpy(at, &u, sizeof u);
    }
    return SCP_OK;
  case T_U64:
    if (!big && x < 0) break;
    {
      uint64_t u = (uint64_t)x;
      memcpy(at, &u, sizeof u);
    }
    return SCP_OK;
  }
  return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s%s%s is out of range", path, set, dot, f->field);
}

/* One ConfigSettingEntry: {"name": value}. */
static int load_entry(scp_fee_network *n, json_t *e, const char *path, scp_error *err) {
  const char *setting;
  json_t *v;
  if (!json_is_object(e) || json_object_size(e) != 1)
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: each updated_entry item is an object with one setting", path);
  json_object_foreach(e, setting, v) {
    if (!strcmp(setting, "live_soroban_state_size_window")) {
      if (!json_is_array(v) || !json_array_size(v))
        return scp_fail(err, SCP_ERR_MALFORMED, "%s: live_soroban_state_size_window is not a non-empty array", path);
      /* NetworkConfig::load_bucket_list_size_from_snapshot: the mean,
       * rounded down */
      uint64_t sum = 0;
      size_t i;
      json_t *s;
      json_array_foreach(v, i, s) {
        int64_t x;
        bool big;
        if (!json_int(s, &x, &big) || (!big && x < 0) || sum + (uint64_t)x < sum)
          return scp_fail(err, SCP_ERR_MALFORMED, "%s: live_soroban_state_size_window[%zu] is not a size", path, i);
        sum += (uint64_t)x;
      }
      n->soroban_state_size = sum / json_array_size(v);
      continue;
    }
    for (size_t i = 0; i < SCP_ARRAY_LEN(fields); i++) {
      const field *f = &fields[i];
      if (!f->setting && !strcmp(f->field, setting)) {
        int rc = set_field(n, f, v, path, err);
        if (rc) return rc;
      } else if (f->setting && !strcmp(f->setting, setting)) {
        if (!json_is_object(v))
          return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s is not an object", path, setting);
        json_t *fv = json_object_get(v, f->field);
        if (!fv) continue;
        int rc = set_field(n, f, fv, path, err);
        if (rc) return rc;
      }
    }
  }
  return SCP_OK;
}

int scp_fee_network_load(const char *path, scp_fee_network *net, scp_error *err) {
  json_error_t je;
  FILE *f = fopen(path, "rb");
  if (!f) return scp_fail(err, SCP_ERR_IO, "%s: %s", path, strerror(errno));
  json_t *root = json_loadf(f, 0, &je);
  fclose(f);
  if (!root)
    return scp_fail(err, SCP_ERR_MALFORMED, "%s:%d: %s", path, je.line, je.text);
  scp_fee_network n = *net;
  int rc = SCP_OK;
  json_t *list = json_is_object(root) ? json_object_get(root, "updated_entry") : root;
  if (!json_is_array(list)) {
    rc = scp_fail(err, SCP_ERR_MALFORMED, "%s: expected {\"updated_entry\": [...]} (a ConfigUpgradeSet as JSON)", path);
    goto done;
  }
  size_t i;
  json_t *e;
  json_array_foreach(list, i, e) {
    if ((rc = load_entry(&n, e, path, err))) goto done;
  }
  snprintf(n.name, sizeof n.name, "%s", path);
  n.source = "settings file";
  *net = n;
done:
  json_decref(root);
  return rc;
}
