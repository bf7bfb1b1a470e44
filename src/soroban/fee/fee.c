/*
 * fee.c — the network's resource and rent fee arithmetic.  Every operation
 * mirrors the reference's integer semantics: i64 saturating add/mul, ceiling
 * division rounding toward +infinity, and the write-fee slope computed in
 * 128 bits then clamped (negative or too large -> INT64_MAX, which fails a
 * transaction rather than making it free).
 */
#include <stdlib.h>

#include "scprof.h"
#include "soroban/fee/scp_fee.h"

typedef __int128 i128;

#define I128_MAX ((i128)(((unsigned __int128)1 << 127) - 1))
#define I128_MIN (-I128_MAX - 1)

static int64_t sat_add(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_add_overflow(a, b, &r)) return r;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

static int64_t sat_sub(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_sub_overflow(a, b, &r)) return r;
  return b < 0 ? INT64_MAX : INT64_MIN;
}

static int64_t sat_mul(int64_t a, int64_t b) {
  int64_t r;
  if (!__builtin_mul_overflow(a, b, &r)) return r;
  return (a < 0) != (b < 0) ? INT64_MIN : INT64_MAX;
}

static i128 sat_mul128(i128 a, i128 b) {
  i128 r;
  if (!__builtin_mul_overflow(a, b, &r)) return r;
  return (a < 0) != (b < 0) ? I128_MIN : I128_MAX;
}

/* num_integer::div_ceil for signed values: the quotient rounded toward
 * +infinity.  d > 0 at every call site (the reference takes max(d, 1)). */
static int64_t div_ceil64(int64_t n, int64_t d) {
  int64_t q = n / d, r = n % d;
  return ((r > 0 && d > 0) || (r < 0 && d < 0)) ? q + 1 : q;
}

static i128 div_ceil128(i128 n, i128 d) {
  i128 q = n / d, r = n % d;
  return ((r > 0 && d > 0) || (r < 0 && d < 0)) ? q + 1 : q;
}

static int64_t clamp_fee64(int64_t v) { return v < 0 ? INT64_MAX : v; }

static int64_t clamp_fee128(i128 v) {
  if (v < 0 || v > (i128)INT64_MAX) return INT64_MAX;
  return (int64_t)v;
}

/* The saturating sum of n values, left to right. */
static int64_t sat_sum(const int64_t *v, size_t n) {
  int64_t s = 0;
  for (size_t i = 0; i < n; i++) s = sat_add(s, v[i]);
  return s;
}

int64_t scp_fee_per_increment64(int64_t value, int64_t rate, int64_t increment) {
  return div_ceil64(sat_mul(value, rate), increment > 1 ? increment : 1);
}

int64_t scp_fee_per_increment(uint32_t value, int64_t rate, int64_t increment) {
  return scp_fee_per_increment64(value, rate, increment);
}

/* The TTL entries of n bumped entries: one write each, their 48 bytes
 * per KB written, rounded up once. */
static int64_t ttl_writes(uint32_t n, const scp_fee_config *cfg) {
  return sat_add(sat_mul(cfg->fee_per_write_entry, n),
                 scp_fee_per_increment64(sat_mul(SCP_FEE_TTL_ENTRY_SIZE, n), cfg->fee_per_write_1kb,
                                         SCP_FEE_DATA_SIZE_1KB_INCREMENT));
}

void scp_fee_sdk_estimate(const scp_fee_sdk_resources *r, const scp_fee_sdk_config *c,
                          scp_fee_sdk_fee *out) {
  const scp_fee_config *f = &c->fee;
  const int64_t kb = SCP_FEE_DATA_SIZE_1KB_INCREMENT;
  out->instructions = scp_fee_per_increment64(r->instructions, f->fee_per_instruction_increment,
                                              SCP_FEE_INSTRUCTIONS_INCREMENT);
  /* the read-entry fee on every written entry too, as the network charges
   * it (a written entry is read first) */
  out->disk_read_entries =
      sat_mul(f->fee_per_disk_read_entry, (int64_t)r->disk_read_entries + r->write_entries);
  out->write_entries = sat_mul(f->fee_per_write_entry, r->write_entries);
  out->disk_read_bytes = scp_fee_per_increment(r->disk_read_bytes, f->fee_per_disk_read_1kb, kb);
  out->write_bytes = scp_fee_per_increment(r->write_bytes, f->fee_per_write_1kb, kb);
  out->contract_events = scp_fee_per_increment(r->contract_events_size_bytes,
                                               f->fee_per_contract_event_1kb, kb);
  out->persistent_entry_rent =
      sat_add(scp_fee_per_increment64(r->persistent_rent_ledger_bytes, c->fee_per_rent_1kb,
                                      sat_mul(kb, c->persistent_rent_rate_denominator)),
              ttl_writes(r->persistent_entry_rent_bumps, f));
  out->temporary_entry_rent =
      sat_add(scp_fee_per_increment64(r->temporary_rent_ledger_bytes, c->fee_per_rent_1kb,
                                      sat_mul(kb, c->temporary_rent_rate_denominator)),
              ttl_writes(r->temporary_entry_rent_bumps, f));
  const int64_t parts[] = {out->instructions, out->disk_read_entries, out->write_entries,
                           out->disk_read_bytes, out->write_bytes, out->contract_events,
                           out->persistent_entry_rent, out->temporary_entry_rent};
  out->total = sat_sum(parts, sizeof parts / sizeof parts[0]);
}

/* soroban-sdk 27.0.5 (stellar/rs-soroban-sdk 808e9cff)
 * soroban-sdk/src/testutils/cost_estimate.rs CostEstimate::fee: "a snapshot
 * of the Stellar Mainnet fees as of 2026-07-10" and a rent rate of 12,000
 * per KB, "a bit higher than the current network fee". */
const scp_fee_sdk_config scp_fee_sdk_test_config = {
  .fee = {.fee_per_instruction_increment = 7, .fee_per_disk_read_entry = 1563,
          .fee_per_write_entry = 2500, .fee_per_disk_read_1kb = 447, .fee_per_write_1kb = 875,
          .fee_per_historical_1kb = 4059, .fee_per_contract_event_1kb = 5000,
          .fee_per_transaction_size_1kb = 406},
  .fee_per_rent_1kb = 12000,
  .persistent_rent_rate_denominator = 1215,
  .temporary_rent_rate_denominator = 2430,
};

static uint32_t sat_add_u32(uint32_t a, uint32_t b) {
  return a > UINT32_MAX - b ? UINT32_MAX : a + b;
}

void scp_fee_transaction(const scp_fee_resources *res, const scp_fee_config *cfg,
                         scp_fee_breakdown *out) {
  const int64_t kb = SCP_FEE_DATA_SIZE_1KB_INCREMENT;
  out->compute = scp_fee_per_increment(res->instructions, cfg->fee_per_instruction_increment,
                                       SCP_FEE_INSTRUCTIONS_INCREMENT);
  out->disk_read_entries = sat_mul(cfg->fee_per_disk_read_entry, res->disk_read_entries);
  out->write_entries = sat_mul(cfg->fee_per_write_entry, res->write_entries);
  out->disk_read_bytes = scp_fee_per_increment(res->disk_read_bytes,
                                               cfg->fee_per_disk_read_1kb, kb);
  out->write_bytes = scp_fee_per_increment(res->write_bytes, cfg->fee_per_write_1kb, kb);
  out->historical = scp_fee_per_increment(
      sat_add_u32(res->transaction_size_bytes, SCP_FEE_TX_BASE_RESULT_SIZE),
      cfg->fee_per_historical_1kb, kb);
  out->events = scp_fee_per_increment(res->contract_events_size_bytes,
                                      cfg->fee_per_contract_event_1kb, kb);
  out->bandwidth = scp_fee_per_increment(res->transaction_size_bytes,
                                         cfg->fee_per_transaction_size_1kb, kb);
  out->refundable = out->events;
  const int64_t nonref[] = {out->compute, out->disk_read_entries, out->write_entries,
                            out->disk_read_bytes, out->write_bytes, out->historical,
                            out->bandwidth};
  out->non_refundable = sat_sum(nonref, sizeof nonref / sizeof nonref[0]);
}

int64_t scp_fee_rent_write_per_1kb(int64_t state_size, const scp_fee_rent_write_config *cfg) {
  int64_t slope = clamp_fee64(sat_sub(cfg->rent_fee_1kb_state_size_high,
                                      cfg->rent_fee_1kb_state_size_low));
  i128 target = cfg->state_target_size_bytes > 1 ? cfg->state_target_size_bytes : 1;
  int64_t fee;
  if (state_size < cfg->state_target_size_bytes) {
    fee = clamp_fee128(div_ceil128(sat_mul128(slope, state_size), target));
    /* the reference adds the low fee without clamping: a negative low fee
     * can pull the result under the minimum, which the final max() fixes */
    fee = sat_add(fee, cfg->rent_fee_1kb_state_size_low);
  } else {
    int64_t over = sat_sub(state_size, cfg->state_target_size_bytes);
    i128 num = sat_mul128(sat_mul128(slope, over), cfg->state_size_rent_fee_growth_factor);
    fee = sat_add(cfg->rent_fee_1kb_state_size_high, clamp_fee128(div_ceil128(num, target)));
  }
  return fee > SCP_FEE_MINIMUM_RENT_WRITE_FEE_PER_1KB ? fee
                                                      : SCP_FEE_MINIMUM_RENT_WRITE_FEE_PER_1KB;
}

static int64_t rent_for_size_and_ledgers(bool persistent, uint32_t size, uint32_t ledgers,
                                         const scp_fee_rent_config *cfg) {
  int64_t num = sat_mul(sat_mul(size, cfg->fee_per_rent_1kb), ledgers);
  int64_t coef = persistent ? cfg->persistent_rent_rate_denominator
                            : cfg->temporary_rent_rate_denominator;
  int64_t den = sat_mul(SCP_FEE_DATA_SIZE_1KB_INCREMENT, coef);
  return div_ceil64(num, den > 1 ? den : 1);
}

int64_t scp_fee_rent_entry(const scp_fee_rent_change *c, const scp_fee_rent_config *cfg,
                           uint32_t ledger) {
  bool is_new = c->old_size_bytes == 0 && c->old_live_until_ledger == 0;
  int64_t fee = 0;
  /* the extension (before, new_live_until] is paid at the new size; a new
   * entry's range starts at the current ledger */
  uint32_t before = is_new ? (ledger > 0 ? ledger - 1 : 0) : c->old_live_until_ledger;
  if (c->new_live_until_ledger >= before)
    fee = sat_add(fee, rent_for_size_and_ledgers(c->is_persistent, c->new_size_bytes,
                                                  c->new_live_until_ledger - before, cfg));
  /* ledgers [ledger, old_live_until] were prepaid at the old size: a size
   * increase tops them up */
  if (!is_new && c->old_live_until_ledger >= ledger &&
      c->new_size_bytes >= c->old_size_bytes) {
    uint32_t prepaid = sat_add_u32(c->old_live_until_ledger - ledger, 1);
    fee = sat_add(fee, rent_for_size_and_ledgers(c->is_persistent,
                                                 c->new_size_bytes - c->old_size_bytes,
                                                 prepaid, cfg));
  }
  if (c->is_code_entry) fee = div_ceil64(fee, SCP_FEE_CODE_ENTRY_RENT_DISCOUNT_FACTOR);
  return fee;
}

int64_t scp_fee_rent(const scp_fee_rent_change *c, size_t n, const scp_fee_rent_config *cfg,
                     uint32_t ledger, scp_fee_rent_breakdown *out) {
  scp_fee_rent_breakdown b = {0};
  uint32_t ttl_bytes = 0;
  int64_t fee = 0, extended = 0;
  for (size_t i = 0; i < n; i++) {
    fee = sat_add(fee, scp_fee_rent_entry(&c[i], cfg, ledger));
    if (c[i].old_live_until_ledger < c[i].new_live_until_ledger) {
      extended = sat_add(extended, 1);
      ttl_bytes = sat_add_u32(ttl_bytes, SCP_FEE_TTL_ENTRY_SIZE);
    }
  }
  b.entries = fee;
  b.extended = extended > UINT32_MAX ? UINT32_MAX : (uint32_t)extended;
  /* TTL entries have a fixed size, so their writes are charged apart from
   * the entries they extend */
  b.ttl_entries = sat_mul(cfg->fee_per_write_entry, extended);
  b.ttl_bytes = scp_fee_per_increment(ttl_bytes, cfg->fee_per_write_1kb,
                                      SCP_FEE_DATA_SIZE_1KB_INCREMENT);
  fee = sat_add(fee, b.ttl_entries);
  fee = sat_add(fee, b.ttl_bytes);
  b.total = fee;
  if (out) *out = b;
  return fee;
}

typedef struct rank {
  uint64_t rem;
  size_t i;
} rank;

static int by_remainder(const void *a, const void *b) {
  const rank *x = a, *y = b;
  if (x->rem != y->rem) return x->rem < y->rem ? 1 : -1;
  return x->i < y->i ? -1 : x->i > y->i;
}

int scp_fee_split(const uint64_t *w, size_t n, uint64_t amount, uint64_t *share) {
  unsigned __int128 sum = 0;
  for (size_t i = 0; i < n; i++) sum += w[i];
  if (!sum) return SCP_ERR_ARG;
  rank *r = malloc(n * sizeof *r);
  if (!r) return SCP_ERR_NOMEM;
  uint64_t given = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned __int128 x = (unsigned __int128)amount * w[i];
    share[i] = (uint64_t)(x / sum);
    r[i] = (rank){.rem = (uint64_t)(x % sum), .i = i};
    given += share[i];
  }
  /* the shares fall short by less than n: at most one more each */
  qsort(r, n, sizeof *r, by_remainder);
  for (size_t k = 0; given < amount; k++, given++) share[r[k].i]++;
  free(r);
  return SCP_OK;
}
