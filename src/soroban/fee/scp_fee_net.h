/*
 * scp_fee_net.h — a network's fee rates and per-transaction limits: the
 * named profiles shipped with scprof and the JSON settings files that
 * stellar-core's soroban-settings/ folder publishes (a ConfigUpgradeSet in
 * stellar-xdr's JSON form: {"updated_entry": [{"contract_compute_v0":
 * {...}}, ...]}).
 */
#ifndef SCP_FEE_NET_H
#define SCP_FEE_NET_H

#include "scprof.h"
#include "soroban/fee/scp_fee.h"

/* Per-transaction limits; the network refuses a transaction over one. */
typedef enum scp_fee_limit_id {
  SCP_FEE_LIM_INSTRUCTIONS,       /* contract_compute_v0.tx_max_instructions */
  SCP_FEE_LIM_MEMORY,             /* contract_compute_v0.tx_memory_limit */
  SCP_FEE_LIM_DISK_READ_ENTRIES,  /* contract_ledger_cost_v0.tx_max_disk_read_entries */
  SCP_FEE_LIM_DISK_READ_BYTES,    /* contract_ledger_cost_v0.tx_max_disk_read_bytes */
  SCP_FEE_LIM_WRITE_ENTRIES,      /* contract_ledger_cost_v0.tx_max_write_ledger_entries */
  SCP_FEE_LIM_WRITE_BYTES,        /* contract_ledger_cost_v0.tx_max_write_bytes */
  SCP_FEE_LIM_FOOTPRINT_ENTRIES,  /* contract_ledger_cost_ext_v0.tx_max_footprint_entries */
  SCP_FEE_LIM_EVENTS_SIZE,        /* contract_events_v0.tx_max_contract_events_size_bytes */
  SCP_FEE_LIM_TX_SIZE,            /* contract_bandwidth_v0.tx_max_size_bytes */
  SCP_FEE_LIM_DATA_KEY_SIZE,      /* contract_data_key_size_bytes */
  SCP_FEE_LIM_DATA_ENTRY_SIZE,    /* contract_data_entry_size_bytes */
  SCP_FEE_LIM_CODE_SIZE,          /* contract_max_size_bytes */
  SCP_FEE_LIM_COUNT
} scp_fee_limit_id;

/* The setting's name as the JSON spells it ("tx_max_write_bytes"). */
const char *scp_fee_limit_name(scp_fee_limit_id id);

typedef struct scp_fee_network {
  char name[64];                  /* "mainnet", or the settings file */
  const char *date;               /* YYYY-MM-DD the values were read (static);
                                     a settings file keeps its base's */
  char base[64];                  /* a settings file: the profile it was applied on;
                                     "" for a shipped profile */
  const char *source;             /* where the values come from (static) */
  scp_fee_config fee;
  scp_fee_rent_write_config rent_write;
  int64_t persistent_rent_rate_denominator;
  int64_t temporary_rent_rate_denominator;
  uint32_t min_persistent_ttl, min_temporary_ttl, max_entry_ttl;
  /* the average of live_soroban_state_size_window: the state size the
   * rent write fee is computed from */
  uint64_t soroban_state_size;
  uint64_t limit[SCP_FEE_LIM_COUNT];
} scp_fee_network;

/* The shipped profile spec names: "mainnet" or "testnet" is the newest
 * profile of that network, "mainnet@2026-03-01" the newest one dated on or
 * before that day.  *out is a copy the caller may change.  SCP_ERR_ARG
 * (err, which may be NULL, says why) for an unknown network, a malformed
 * date, or a date before the oldest profile. */
int scp_fee_network_find(const char *spec, scp_fee_network *out, scp_error *err);
/* scp_fee_network_find as a yes/no. */
bool scp_fee_network_named(const char *spec, scp_fee_network *out);
/* The profile names, for messages. */
const char *scp_fee_network_names(void);
/* The shipped profiles, every date of every network (for tests and docs). */
size_t scp_fee_network_count(void);
const scp_fee_network *scp_fee_network_at(size_t i);

/* Apply the settings file at path on top of *net (a settings file is an
 * upgrade: what it names replaces, the rest stays).  Settings the fee does
 * not use (cost parameters, ledger-wide limits, timing) are skipped; an
 * unknown setting or field, or a value that is not an integer in range, is
 * SCP_ERR_MALFORMED, an unreadable file SCP_ERR_IO, err naming the file and
 * the setting.  On failure *net is unchanged. */
int scp_fee_network_load(const char *path, scp_fee_network *net, scp_error *err);

/* The rent configuration: fee_per_rent_1kb from the state size. */
void scp_fee_network_rent(const scp_fee_network *net, scp_fee_rent_config *out);

#endif
