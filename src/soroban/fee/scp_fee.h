/*
 * scp_fee.h — the Soroban resource fee, computed the way the network
 * computes it (rs-soroban-env v28 soroban-env-host/src/fees.rs, the code
 * stellar-core and the RPC's simulation share).
 *
 * All arithmetic is 64-bit signed with saturation, every per-resource
 * component is rounded up on its own (so the total is a sum of ceilings,
 * not the ceiling of a sum), and the rent write fee goes through 128 bits
 * and is clamped the way the reference clamps it.  Callers get each
 * component separately so a report can show where the stroops go.
 */
#ifndef SCP_FEE_H
#define SCP_FEE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Rough size of a transaction's result in the history archives. */
#define SCP_FEE_TX_BASE_RESULT_SIZE 300u
/* XDR size of a TtlEntry ledger entry. */
#define SCP_FEE_TTL_ENTRY_SIZE 48u
#define SCP_FEE_INSTRUCTIONS_INCREMENT 10000
#define SCP_FEE_DATA_SIZE_1KB_INCREMENT 1024
#define SCP_FEE_MINIMUM_RENT_WRITE_FEE_PER_1KB 1000
/* Rent of contract code entries is divided by this (rounded up). */
#define SCP_FEE_CODE_ENTRY_RENT_DISCOUNT_FACTOR 3

/* What a transaction declares it uses (TransactionResources). */
typedef struct scp_fee_resources {
  uint32_t instructions;
  uint32_t disk_read_entries;
  uint32_t write_entries;
  uint32_t disk_read_bytes;
  uint32_t write_bytes;
  uint32_t contract_events_size_bytes;
  uint32_t transaction_size_bytes;
} scp_fee_resources;

/* Fee rates from the network configuration (FeeConfiguration). */
typedef struct scp_fee_config {
  int64_t fee_per_instruction_increment; /* per 10,000 instructions */
  int64_t fee_per_disk_read_entry;
  int64_t fee_per_write_entry;
  int64_t fee_per_disk_read_1kb;
  int64_t fee_per_write_1kb;
  int64_t fee_per_historical_1kb;
  int64_t fee_per_contract_event_1kb;
  int64_t fee_per_transaction_size_1kb;
} scp_fee_config;

/* One fee per resource, each already rounded up; non_refundable and
 * refundable are the pair compute_transaction_resource_fee returns (the
 * saturating sums of the components). */
typedef struct scp_fee_breakdown {
  int64_t compute;
  int64_t disk_read_entries;
  int64_t write_entries;
  int64_t disk_read_bytes;
  int64_t write_bytes;
  int64_t historical;  /* transaction size + TX_BASE_RESULT_SIZE */
  int64_t bandwidth;   /* transaction size */
  int64_t events;      /* the only refundable component */
  int64_t non_refundable;
  int64_t refundable;
} scp_fee_breakdown;

/* compute_transaction_resource_fee.  Any resource values are accepted
 * (saturating); cannot fail. */
void scp_fee_transaction(const scp_fee_resources *res, const scp_fee_config *cfg,
                         scp_fee_breakdown *out);

/* ceil(value * rate / increment) with the reference's saturation; the
 * building block of every component (exposed for attribution). */
int64_t scp_fee_per_increment(uint32_t value, int64_t rate, int64_t increment);

/* Network values that set the rent write fee (RentWriteFeeConfiguration). */
typedef struct scp_fee_rent_write_config {
  int64_t state_target_size_bytes;
  int64_t rent_fee_1kb_state_size_low;
  int64_t rent_fee_1kb_state_size_high;
  uint32_t state_size_rent_fee_growth_factor;
} scp_fee_rent_write_config;

/* compute_rent_write_fee_per_1kb: the rent fee per 1 KB for a Soroban
 * in-memory state of state_size bytes; never below
 * SCP_FEE_MINIMUM_RENT_WRITE_FEE_PER_1KB. */
int64_t scp_fee_rent_write_per_1kb(int64_t state_size,
                                   const scp_fee_rent_write_config *cfg);

/* One ledger entry before and after the transaction (LedgerEntryRentChange).
 * A new entry has old_size_bytes == 0 and old_live_until_ledger == 0. */
typedef struct scp_fee_rent_change {
  bool is_persistent;
  bool is_code_entry;
  uint32_t old_size_bytes;
  uint32_t new_size_bytes;
  uint32_t old_live_until_ledger;
  uint32_t new_live_until_ledger;
} scp_fee_rent_change;

/* RentFeeConfiguration; fee_per_rent_1kb comes from
 * scp_fee_rent_write_per_1kb. */
typedef struct scp_fee_rent_config {
  int64_t fee_per_write_1kb;
  int64_t fee_per_rent_1kb;
  int64_t fee_per_write_entry;
  int64_t persistent_rent_rate_denominator;
  int64_t temporary_rent_rate_denominator;
} scp_fee_rent_config;

/* The parts of compute_rent_fee: total == saturating sum of the per-entry
 * fees, ttl_entries (one TTL entry write per extended entry) and ttl_bytes
 * (48 bytes each, rounded up once over all of them). */
typedef struct scp_fee_rent_breakdown {
  int64_t entries;      /* saturating sum of scp_fee_rent_entry */
  int64_t ttl_entries;
  int64_t ttl_bytes;
  uint32_t extended;    /* entries whose live-until ledger moved forward */
  int64_t total;
} scp_fee_rent_breakdown;

/* The rent of one entry change at ledger `ledger` (rent_fee_per_entry_change:
 * the extension at the new size, plus the size increase over the ledgers
 * already paid for, code entries discounted). */
int64_t scp_fee_rent_entry(const scp_fee_rent_change *c, const scp_fee_rent_config *cfg,
                           uint32_t ledger);

/* compute_rent_fee over n changes; out may be NULL.  Returns out->total. */
int64_t scp_fee_rent(const scp_fee_rent_change *c, size_t n, const scp_fee_rent_config *cfg,
                     uint32_t ledger, scp_fee_rent_breakdown *out);

/* scp_fee_per_increment for a 64-bit value (rent in ledger-bytes,
 * instructions of an invocation). */
int64_t scp_fee_per_increment64(int64_t value, int64_t rate, int64_t increment);

/* ---- soroban-sdk's cost_estimate().fee() --------------------------------
 * What a soroban-sdk test reports for one top-level call: the
 * InvocationResources the host metered (rs-soroban-env v28
 * host/invocation_metering.rs) and the FeeEstimate its estimate_fees
 * derives from them.  Not the network's fee: no transaction size or
 * history, the read-entry fee also on written entries, events without the
 * return value, rent from a fixed rate per KB on the ledger-bytes bumped,
 * the TTL entry writes inside the rent components. */
typedef struct scp_fee_sdk_resources {
  int64_t instructions;
  int64_t mem_bytes;                   /* the peak; no fee */
  uint32_t disk_read_entries;
  uint32_t memory_read_entries;        /* no fee */
  uint32_t write_entries;
  uint32_t disk_read_bytes;
  uint32_t write_bytes;
  uint32_t contract_events_size_bytes;
  int64_t persistent_rent_ledger_bytes;  /* bytes x ledgers of rent bumped */
  uint32_t persistent_entry_rent_bumps;
  int64_t temporary_rent_ledger_bytes;
  uint32_t temporary_entry_rent_bumps;
} scp_fee_sdk_resources;

typedef struct scp_fee_sdk_fee {
  int64_t total;
  int64_t instructions;
  int64_t disk_read_entries;
  int64_t write_entries;
  int64_t disk_read_bytes;
  int64_t write_bytes;
  int64_t contract_events;
  int64_t persistent_entry_rent;       /* with the TTL entries' writes */
  int64_t temporary_entry_rent;
} scp_fee_sdk_fee;

typedef struct scp_fee_sdk_config {
  scp_fee_config fee;
  int64_t fee_per_rent_1kb;
  int64_t persistent_rent_rate_denominator;
  int64_t temporary_rent_rate_denominator;
} scp_fee_sdk_config;

/* The constants soroban-sdk's CostEstimate::fee passes (see fee.c). */
extern const scp_fee_sdk_config scp_fee_sdk_test_config;

/* InvocationResources::estimate_fees: every component rounded up on its
 * own, saturating; cannot fail. */
void scp_fee_sdk_estimate(const scp_fee_sdk_resources *r, const scp_fee_sdk_config *c,
                          scp_fee_sdk_fee *out);

/* Split amount over n weights in proportion, each share rounded down,
 * then one more stroop to each of the largest remainders (ties: the
 * earlier weight) until the shares sum to amount exactly.  Returns SCP_OK,
 * SCP_ERR_ARG when no weight is positive, SCP_ERR_NOMEM. */
int scp_fee_split(const uint64_t *w, size_t n, uint64_t amount, uint64_t *share);

#endif
