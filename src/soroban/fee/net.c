/*
 * net.c — the shipped network profiles and the settings-file reader.
 *
 * Each profile says where every value was read.  Both networks ran
 * protocol 23 with these fee rates; the file reader takes the JSON that
 * stellar-core publishes for settings upgrades, so a user can profile
 * against a proposed upgrade or a private network.
 */
#include <stdio.h>
#include <string.h>

#include "soroban/fee/scp_fee_net.h"
#include "util/scp_json.h"
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

/* Every profile is dated: the day its values were read from the source it
 * names.  A bare name takes the newest profile of that network,
 * "NAME@YYYY-MM-DD" the newest one dated on or before that day, so a
 * profile made against older settings can be made again. */

/* A fee rate table, by field name, from the rates in scp_fee_config's order. */
#define FEES(instr, read_entry, write_entry, read_1kb, write_1kb, hist_1kb, event_1kb, tx_1kb) \
  { .fee_per_instruction_increment = (instr), .fee_per_disk_read_entry = (read_entry), \
    .fee_per_write_entry = (write_entry), .fee_per_disk_read_1kb = (read_1kb), \
    .fee_per_write_1kb = (write_1kb), .fee_per_historical_1kb = (hist_1kb), \
    .fee_per_contract_event_1kb = (event_1kb), .fee_per_transaction_size_1kb = (tx_1kb) }

/* The rent settings every shipped profile shares (both networks, since
 * protocol 23): the rent write fee's curve but for the state size it targets,
 * the rent rates and the longest TTL.  The shortest TTLs are a network's. */
#define RENT(target) \
  .rent_write = { .state_target_size_bytes = (target), .rent_fee_1kb_state_size_low = -17000, \
                  .rent_fee_1kb_state_size_high = 10000, \
                  .state_size_rent_fee_growth_factor = 5000 }, \
  .persistent_rent_rate_denominator = 1215, .temporary_rent_rate_denominator = 2430, \
  .max_entry_ttl = 3110400
#define MAINNET_TTL .min_persistent_ttl = 2073600, .min_temporary_ttl = 17280
#define TESTNET_TTL .min_persistent_ttl = 120960, .min_temporary_ttl = 720

/* Both networks since their early-2026 upgrade, as stellar/laboratory's
 * scripts/fetch-network-limits.mjs read them from each network's RPC
 * (getLedgerEntries of the ConfigSettingEntry keys) into
 * src/constants/networkLimits.ts; the newest commit of that file read
 * here is f0103e70 of 2026-07-29.  That file has no tx_max_size_bytes: it
 * is developers.stellar.org's "Resource Limits & Fees" table (132 KB). */
#define LAB_2026_07 \
  "stellar/laboratory src/constants/networkLimits.ts, commit f0103e70 (2026-07-29), " \
  "values fetched from the network's RPC by scripts/fetch-network-limits.mjs; " \
  "live_soroban_state_size_window averaged; tx_max_size_bytes from " \
  "developers.stellar.org/docs/networks/resource-limits-fees (132 KB)"
#define FEES_2026_07 FEES(7, 1563, 2500, 447, 875, 4059, 5000, 406)
#define LIMITS_2026_07 {400000000, 41943040, 200, 200000, 200, 132096, 400, 16384, 132096, 250, \
                        65536, 131072}

/* The protocol-23 rates both networks had before (developers.stellar.org,
 * "Resource Limits & Fees"; the settings files below agree). */
#define P23_FEES FEES(25, 6250, 10000, 1786, 3500, 16235, 10000, 1624)
#define P23_LIMITS {100000000, 41943040, 100, 200000, 50, 132096, 100, 16384, 132096, 250, \
                    65536, 131072}

static const scp_fee_network profiles[] = {
  {
    .name = "mainnet",
    .date = "2026-07-29",
    .source = LAB_2026_07,
    .fee = FEES_2026_07,
    RENT(3000000000),
    MAINNET_TTL,
    .soroban_state_size = 1388000392,
    .limit = LIMITS_2026_07,
  },
  {
    .name = "testnet",
    .date = "2026-07-29",
    .source = LAB_2026_07,
    .fee = FEES_2026_07,
    RENT(4000000000),
    TESTNET_TTL,
    .soroban_state_size = 2583023865,
    .limit = LIMITS_2026_07,
  },
  {
    .name = "mainnet",
    .date = "2026-01-12",
    .source = "mainnet ConfigSettingEntry values as stellar/laboratory's "
              "scripts/fetch-network-limits.mjs read them from mainnet RPC "
              "(src/constants/networkLimits.ts, commit 3a671976, 2026-01-12; "
              "live_soroban_state_size_window averaged); tx_max_size_bytes from "
              "developers.stellar.org/docs/networks/resource-limits-fees (132 KB); "
              "contract_data_entry_size_bytes from networkLimits.ts at commit "
              "62e959ed (2026-07-24)",
    .fee = P23_FEES,
    RENT(3000000000),
    MAINNET_TTL,
    .soroban_state_size = 553688657,
    .limit = P23_LIMITS,
  },
  {
    .name = "testnet",
    .date = "2025-08-14",
    .source = "stellar/stellar-core soroban-settings/testnet_settings_upgrade.json "
              "(commit 54d67ffcd, 2025-08-14, protocol 23); state size: the testnet "
              "live_soroban_state_size_window average in stellar/laboratory's "
              "src/constants/networkLimits.ts (commit 3a671976, 2026-01-12)",
    .fee = P23_FEES,
    RENT(3000000000),
    TESTNET_TTL,
    .soroban_state_size = 258144068,
    .limit = P23_LIMITS,
  },
};

/* "YYYY-MM-DD", digits where digits go (compared as text, which orders
 * such dates). */
static bool is_date(const char *s) {
  static const char shape[] = "dddd-dd-dd";
  for (size_t i = 0; i < sizeof shape - 1; i++)
    if (shape[i] == 'd' ? (s[i] < '0' || s[i] > '9') : s[i] != '-') return false;
  return s[sizeof shape - 1] == 0;
}

int scp_fee_network_find(const char *spec, scp_fee_network *out, scp_error *err) {
  const char *at = strchr(spec, '@');
  size_t nlen = at ? (size_t)(at - spec) : strlen(spec);
  if (at && !is_date(at + 1))
    return scp_fail(err, SCP_ERR_ARG, "network '%s': a date is YYYY-MM-DD (mainnet@2026-01-12)", spec);
  const scp_fee_network *best = NULL, *oldest = NULL;
  for (size_t i = 0; i < SCP_ARRAY_LEN(profiles); i++) {
    const scp_fee_network *p = &profiles[i];
    if (strlen(p->name) != nlen || strncmp(p->name, spec, nlen)) continue;
    if (!oldest || strcmp(p->date, oldest->date) < 0) oldest = p;
    if (at && strcmp(p->date, at + 1) > 0) continue;
    if (!best || strcmp(p->date, best->date) > 0) best = p;
  }
  if (!oldest)
    return scp_fail(err, SCP_ERR_ARG, "network '%s': the shipped networks are %s", spec,
                    scp_fee_network_names());
  if (!best)
    return scp_fail(err, SCP_ERR_ARG, "network '%s': the oldest %s profile is of %s", spec,
                    oldest->name, oldest->date);
  *out = *best;
  return SCP_OK;
}

bool scp_fee_network_named(const char *name, scp_fee_network *out) {
  return scp_fee_network_find(name, out, NULL) == SCP_OK;
}

const char *scp_fee_network_names(void) {
  return "mainnet, testnet (older settings: mainnet@2026-01-12, testnet@2025-08-14)";
}

size_t scp_fee_network_count(void) { return SCP_ARRAY_LEN(profiles); }

const scp_fee_network *scp_fee_network_at(size_t i) {
  return i < SCP_ARRAY_LEN(profiles) ? &profiles[i] : NULL;
}

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
  {.setting = "contract_compute_v0", .field = "tx_max_instructions", .t = T_U64,
   .off = L(SCP_FEE_LIM_INSTRUCTIONS)},
  {.setting = "contract_compute_v0", .field = "fee_rate_per_instructions_increment", .t = T_I64,
   .off = N(fee.fee_per_instruction_increment)},
  {.setting = "contract_compute_v0", .field = "tx_memory_limit", .t = T_U64,
   .off = L(SCP_FEE_LIM_MEMORY)},
  {.setting = "contract_ledger_cost_v0", .field = "tx_max_disk_read_entries", .t = T_U64,
   .off = L(SCP_FEE_LIM_DISK_READ_ENTRIES)},
  {.setting = "contract_ledger_cost_v0", .field = "tx_max_disk_read_bytes", .t = T_U64,
   .off = L(SCP_FEE_LIM_DISK_READ_BYTES)},
  {.setting = "contract_ledger_cost_v0", .field = "tx_max_write_ledger_entries", .t = T_U64,
   .off = L(SCP_FEE_LIM_WRITE_ENTRIES)},
  {.setting = "contract_ledger_cost_v0", .field = "tx_max_write_bytes", .t = T_U64,
   .off = L(SCP_FEE_LIM_WRITE_BYTES)},
  {.setting = "contract_ledger_cost_v0", .field = "fee_disk_read_ledger_entry", .t = T_I64,
   .off = N(fee.fee_per_disk_read_entry)},
  {.setting = "contract_ledger_cost_v0", .field = "fee_write_ledger_entry", .t = T_I64,
   .off = N(fee.fee_per_write_entry)},
  {.setting = "contract_ledger_cost_v0", .field = "fee_disk_read1_kb", .t = T_I64,
   .off = N(fee.fee_per_disk_read_1kb)},
  {.setting = "contract_ledger_cost_v0", .field = "soroban_state_target_size_bytes", .t = T_I64,
   .off = N(rent_write.state_target_size_bytes)},
  {.setting = "contract_ledger_cost_v0", .field = "rent_fee1_kb_soroban_state_size_low", .t = T_I64,
   .off = N(rent_write.rent_fee_1kb_state_size_low)},
  {.setting = "contract_ledger_cost_v0", .field = "rent_fee1_kb_soroban_state_size_high", .t = T_I64,
   .off = N(rent_write.rent_fee_1kb_state_size_high)},
  {.setting = "contract_ledger_cost_v0", .field = "soroban_state_rent_fee_growth_factor", .t = T_U32,
   .off = N(rent_write.state_size_rent_fee_growth_factor)},
  {.setting = "contract_historical_data_v0", .field = "fee_historical1_kb", .t = T_I64,
   .off = N(fee.fee_per_historical_1kb)},
  {.setting = "contract_events_v0", .field = "tx_max_contract_events_size_bytes", .t = T_U64,
   .off = L(SCP_FEE_LIM_EVENTS_SIZE)},
  {.setting = "contract_events_v0", .field = "fee_contract_events1_kb", .t = T_I64,
   .off = N(fee.fee_per_contract_event_1kb)},
  {.setting = "contract_bandwidth_v0", .field = "tx_max_size_bytes", .t = T_U64,
   .off = L(SCP_FEE_LIM_TX_SIZE)},
  {.setting = "contract_bandwidth_v0", .field = "fee_tx_size1_kb", .t = T_I64,
   .off = N(fee.fee_per_transaction_size_1kb)},
  {.setting = "state_archival", .field = "max_entry_ttl", .t = T_U32,
   .off = N(max_entry_ttl)},
  {.setting = "state_archival", .field = "min_temporary_ttl", .t = T_U32,
   .off = N(min_temporary_ttl)},
  {.setting = "state_archival", .field = "min_persistent_ttl", .t = T_U32,
   .off = N(min_persistent_ttl)},
  {.setting = "state_archival", .field = "persistent_rent_rate_denominator", .t = T_I64,
   .off = N(persistent_rent_rate_denominator)},
  {.setting = "state_archival", .field = "temp_rent_rate_denominator", .t = T_I64,
   .off = N(temporary_rent_rate_denominator)},
  {.setting = "contract_ledger_cost_ext_v0", .field = "tx_max_footprint_entries", .t = T_U64,
   .off = L(SCP_FEE_LIM_FOOTPRINT_ENTRIES)},
  {.setting = "contract_ledger_cost_ext_v0", .field = "fee_write1_kb", .t = T_I64,
   .off = N(fee.fee_per_write_1kb)},
  {.setting = NULL, .field = "contract_data_key_size_bytes", .t = T_U64,
   .off = L(SCP_FEE_LIM_DATA_KEY_SIZE)},
  {.setting = NULL, .field = "contract_data_entry_size_bytes", .t = T_U64,
   .off = L(SCP_FEE_LIM_DATA_ENTRY_SIZE)},
  {.setting = NULL, .field = "contract_max_size_bytes", .t = T_U64,
   .off = L(SCP_FEE_LIM_CODE_SIZE)},
};
#undef N
#undef L

/* Every ConfigSettingEntry arm and every field of the structured ones, as
 * stellar-xdr's JSON spells them: what the fee does not use (cost
 * parameters, ledger-wide limits, eviction, timing) is known and skipped,
 * anything else is refused as a misspelling. */
static const char *const settings[] = {
  "contract_max_size_bytes", "contract_compute_v0", "contract_ledger_cost_v0",
  "contract_historical_data_v0", "contract_events_v0", "contract_bandwidth_v0",
  "contract_cost_params_cpu_instructions", "contract_cost_params_memory_bytes",
  "contract_data_key_size_bytes", "contract_data_entry_size_bytes", "state_archival",
  "contract_execution_lanes", "live_soroban_state_size_window", "eviction_iterator",
  "contract_parallel_compute_v0", "contract_ledger_cost_ext_v0", "scp_timing", NULL};

typedef struct known_fields {
  const char *setting;
  const char *const *fields;
} known_fields;

static const char *const f_compute[] = {"ledger_max_instructions", "tx_max_instructions",
  "fee_rate_per_instructions_increment", "tx_memory_limit", NULL};
static const char *const f_ledger[] = {"ledger_max_disk_read_entries",
  "ledger_max_disk_read_bytes", "ledger_max_write_ledger_entries", "ledger_max_write_bytes",
  "tx_max_disk_read_entries", "tx_max_disk_read_bytes", "tx_max_write_ledger_entries",
  "tx_max_write_bytes", "fee_disk_read_ledger_entry", "fee_write_ledger_entry",
  "fee_disk_read1_kb", "soroban_state_target_size_bytes", "rent_fee1_kb_soroban_state_size_low",
  "rent_fee1_kb_soroban_state_size_high", "soroban_state_rent_fee_growth_factor", NULL};
static const char *const f_history[] = {"fee_historical1_kb", NULL};
static const char *const f_events[] = {"tx_max_contract_events_size_bytes",
  "fee_contract_events1_kb", NULL};
static const char *const f_bandwidth[] = {"ledger_max_txs_size_bytes", "tx_max_size_bytes",
  "fee_tx_size1_kb", NULL};
static const char *const f_archival[] = {"max_entry_ttl", "min_temporary_ttl",
  "min_persistent_ttl", "persistent_rent_rate_denominator", "temp_rent_rate_denominator",
  "max_entries_to_archive", "live_soroban_state_size_window_sample_size",
  "live_soroban_state_size_window_sample_period", "eviction_scan_size",
  "starting_eviction_scan_level", NULL};
static const char *const f_ledger_ext[] = {"tx_max_footprint_entries", "fee_write1_kb", NULL};
static const char *const f_lanes[] = {"ledger_max_tx_count", NULL};
static const char *const f_parallel[] = {"ledger_max_dependent_tx_clusters", NULL};
static const char *const f_timing[] = {"ledger_target_close_time_milliseconds",
  "nomination_timeout_initial_milliseconds", "nomination_timeout_increment_milliseconds",
  "ballot_timeout_initial_milliseconds", "ballot_timeout_increment_milliseconds", NULL};

static const known_fields structured[] = {
  {.setting = "contract_compute_v0", .fields = f_compute},
  {.setting = "contract_ledger_cost_v0", .fields = f_ledger},
  {.setting = "contract_historical_data_v0", .fields = f_history},
  {.setting = "contract_events_v0", .fields = f_events},
  {.setting = "contract_bandwidth_v0", .fields = f_bandwidth},
  {.setting = "state_archival", .fields = f_archival},
  {.setting = "contract_ledger_cost_ext_v0", .fields = f_ledger_ext},
  {.setting = "contract_execution_lanes", .fields = f_lanes},
  {.setting = "contract_parallel_compute_v0", .fields = f_parallel},
  {.setting = "scp_timing", .fields = f_timing},
};

/* stellar-xdr's JSON writes 64-bit integers as strings, 32-bit ones as
 * numbers; either is taken (scp_json reads both exactly). */
static int set_field(scp_fee_network *n, const field *f, const json_t *v, const char *path,
                     scp_error *err) {
  const char *set = f->setting ? f->setting : "", *dot = f->setting ? "." : "";
  int64_t s;
  uint64_t u;
  bool is_s = scp_json_i64(v, &s), is_u = scp_json_u64(v, &u);
  if (!is_s && !is_u)
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s%s%s is not an integer", path, set, dot, f->field);
  char *at = (char *)n + f->off;
  switch (f->t) {
  case T_I64:
    if (!is_s) break;
    memcpy(at, &s, sizeof s);
    return SCP_OK;
  case T_U32:
    if (!is_u || u > UINT32_MAX) break;
    {
      uint32_t x = (uint32_t)u;
      memcpy(at, &x, sizeof x);
    }
    return SCP_OK;
  case T_U64:
    if (!is_u) break;
    memcpy(at, &u, sizeof u);
    return SCP_OK;
  }
  return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s%s%s is out of range", path, set, dot, f->field);
}

/* NetworkConfig::load_bucket_list_size_from_snapshot: the mean of the
 * window, rounded down. */
static int state_window(scp_fee_network *n, const json_t *v, const char *path, scp_error *err) {
  if (!json_is_array(v) || !json_array_size(v))
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: live_soroban_state_size_window is not a non-empty array", path);
  uint64_t sum = 0;
  size_t i;
  json_t *s;
  json_array_foreach(v, i, s) {
    uint64_t x;
    if (!scp_json_u64(s, &x) || sum + x < sum)
      return scp_fail(err, SCP_ERR_MALFORMED, "%s: live_soroban_state_size_window[%zu] is not a size", path, i);
    sum += x;
  }
  n->soroban_state_size = sum / json_array_size(v);
  return SCP_OK;
}

/* The fields of a structured setting, each known (the ones the fee uses
 * read). */
static int load_struct(scp_fee_network *n, const char *setting, json_t *v, size_t item,
                       const char *path, scp_error *err) {
  char where[128];
  snprintf(where, sizeof where, "updated_entry[%zu].%.64s", item, setting);
  if (!json_is_object(v))
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: %s is not an object", path, where);
  for (size_t i = 0; i < SCP_ARRAY_LEN(structured); i++) {
    if (strcmp(structured[i].setting, setting)) continue;
    int rc = scp_json_check_keys(v, structured[i].fields, path, where, err);
    if (rc) return rc;
  }
  for (size_t i = 0; i < SCP_ARRAY_LEN(fields); i++) {
    const field *f = &fields[i];
    if (!f->setting || strcmp(f->setting, setting)) continue;
    json_t *fv = json_object_get(v, f->field);
    int rc = fv ? set_field(n, f, fv, path, err) : SCP_OK;
    if (rc) return rc;
  }
  return SCP_OK;
}

/* One ConfigSettingEntry: {"name": value}. */
static int load_entry(scp_fee_network *n, json_t *e, size_t item, const char *path,
                      scp_error *err) {
  const char *setting;
  json_t *v;
  if (!json_is_object(e) || json_object_size(e) != 1)
    return scp_fail(err, SCP_ERR_MALFORMED, "%s: updated_entry[%zu] is not an object with one setting", path, item);
  char where[48];
  snprintf(where, sizeof where, "updated_entry[%zu]", item);
  int rc = scp_json_check_keys(e, settings, path, where, err);
  if (rc) return rc;
  json_object_foreach(e, setting, v) {
    if (!strcmp(setting, "live_soroban_state_size_window")) return state_window(n, v, path, err);
    for (size_t i = 0; i < SCP_ARRAY_LEN(fields); i++)
      if (!fields[i].setting && !strcmp(fields[i].field, setting)) return set_field(n, &fields[i], v, path, err);
    for (size_t i = 0; i < SCP_ARRAY_LEN(structured); i++)
      if (!strcmp(structured[i].setting, setting)) return load_struct(n, setting, v, item, path, err);
  }
  return SCP_OK;
}

int scp_fee_network_load(const char *path, scp_fee_network *net, scp_error *err) {
  json_t *root;
  int rc = scp_json_load_file(path, SCP_MAX_SCENARIO_BYTES, "a network settings file", &root, err);
  if (rc) return rc;
  scp_fee_network n = *net;
  json_t *list = json_is_object(root) ? json_object_get(root, "updated_entry") : root;
  static const char *const top[] = {"updated_entry", NULL};
  if (!json_is_array(list)) {
    rc = scp_fail(err, SCP_ERR_MALFORMED, "%s: expected {\"updated_entry\": [...]} (a ConfigUpgradeSet as JSON)", path);
    goto done;
  }
  if (list != root && (rc = scp_json_check_keys(root, top, path, NULL, err))) goto done;
  size_t i;
  json_t *e;
  json_array_foreach(list, i, e) {
    if ((rc = load_entry(&n, e, i, path, err))) goto done;
  }
  snprintf(n.name, sizeof n.name, "%s", path);
  snprintf(n.base, sizeof n.base, "%s", net->base[0] ? net->base : net->name);
  n.source = "settings file";
  *net = n;
done:
  json_decref(root);
  return rc;
}
