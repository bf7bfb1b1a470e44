/*
 * test_fees.c — the fee arithmetic of src/soroban/fee against the
 * reference's own vectors and against cases worked out by hand.
 *
 * The tables marked "reference" are the test vectors of rs-soroban-env
 * v28.0.2, soroban-env-host/tests/fees.rs (https://github.com/stellar/
 * rs-soroban-env, Apache-2.0, (c) Stellar Development Foundation), restated
 * as data: same inputs, same expected numbers, one row per assert_eq!.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "soroban/fee/scp_fee.h"
#include "soroban/fee/scp_fee_net.h"

#define U32MAX UINT32_MAX
#define I64MAX INT64_MAX

/* ---- reference: compute_transaction_resource_fee --------------------- */

typedef struct tx_case {
  scp_fee_resources r; /* instr, read entries, write entries, read bytes,
                          write bytes, events bytes, tx bytes */
  int64_t nonref, ref;
} tx_case;

/* resource_fee_computation_with_single_resource: rates 1000..8000 */
static const scp_fee_config single_cfg = {1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000};
/* ceil(6000 * 300 / 1024): the historical fee of the result alone */
#define BASE_HIST 1758
static const tx_case single_cases[] = {
  {{1, 0, 0, 0, 0, 0, 0}, 1 + BASE_HIST, 0},
  {{10000, 0, 0, 0, 0, 0, 0}, 1000 + BASE_HIST, 0},
  {{123451234, 0, 0, 0, 0, 0, 0}, 12345124 + BASE_HIST, 0},
  {{U32MAX, 0, 0, 0, 0, 0, 0}, 429496730 + BASE_HIST, 0},
  {{0, 1, 0, 0, 0, 0, 0}, 2000 + BASE_HIST, 0},
  {{0, 5, 0, 0, 0, 0, 0}, 2000 * 5 + BASE_HIST, 0},
  {{0, U32MAX, 0, 0, 0, 0, 0}, 8589934590000 + BASE_HIST, 0},
  {{0, 0, 1, 0, 0, 0, 0}, 3000 + BASE_HIST, 0},
  {{0, 0, 5, 0, 0, 0, 0}, 3000 * 5 + BASE_HIST, 0},
  {{0, 1, 1, 0, 0, 0, 0}, 2000 + 3000 + BASE_HIST, 0},
  {{0, 0, U32MAX, 0, 0, 0, 0}, 12884901885000 + BASE_HIST, 0},
  {{0, 0, 0, 1, 0, 0, 0}, 4 + BASE_HIST, 0},
  {{0, 0, 0, 5 * 1024, 0, 0, 0}, 5 * 4000 + BASE_HIST, 0},
  {{0, 0, 0, 5 * 1024 + 1, 0, 0, 0}, 20004 + BASE_HIST, 0},
  {{0, 0, 0, U32MAX, 0, 0, 0}, 16777215997 + BASE_HIST, 0},
  {{0, 0, 0, 0, 1, 0, 0}, 5 + BASE_HIST, 0},
  {{0, 0, 0, 0, 5 * 1024, 0, 0}, 5 * 5000 + BASE_HIST, 0},
  {{0, 0, 0, 0, 5 * 1024 + 1, 0, 0}, 25005 + BASE_HIST, 0},
  {{0, 0, 0, 0, U32MAX, 0, 0}, 20971519996 + BASE_HIST, 0},
  {{0, 0, 0, 0, 0, 0, 1}, 6 + 8 + BASE_HIST, 0},
  {{0, 0, 0, 0, 0, 0, 5 * 1024}, (6000 + 8000) * 5 + BASE_HIST, 0},
  {{0, 0, 0, 0, 0, 0, 5 * 1024 + 1}, 30006 + 40008 + BASE_HIST, 0},
  /* tx size + 300 saturates at u32::MAX: no separate result fee */
  {{0, 0, 0, 0, 0, 0, U32MAX}, 25165823995 + 33554431993, 0},
  {{0, 0, 0, 0, 0, 1, 0}, BASE_HIST, 7},
  {{0, 0, 0, 0, 0, 5 * 1024, 0}, BASE_HIST, 5 * 7000},
  {{0, 0, 0, 0, 0, 5 * 1024 + 1, 0}, BASE_HIST, 35007},
  {{0, 0, 0, 0, 0, U32MAX, 0}, BASE_HIST, 29360127994},
};

static void check_tx(const tx_case *c, const scp_fee_config *cfg) {
  scp_fee_breakdown b;
  scp_fee_transaction(&c->r, cfg, &b);
  assert_int_equal(b.non_refundable, c->nonref);
  assert_int_equal(b.refundable, c->ref);
}

static void test_ref_single_resource(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof single_cases / sizeof *single_cases; i++)
    check_tx(&single_cases[i], &single_cfg);
}

/* resource_fee_computation */
static void test_ref_resource_fee(void **state) {
  (void)state;
  const scp_fee_config all100 = {100, 100, 100, 100, 100, 100, 100, 100};
  const tx_case none = {{0, 0, 0, 0, 0, 0, 0}, 30, 0};
  const tx_case minimal = {{1, 1, 1, 1, 1, 1, 1}, 234, 1};
  check_tx(&none, &all100);
  check_tx(&minimal, &all100);
  const scp_fee_config mixed = {1000, 2000, 4000, 1500, 3000, 300, 200, 900};
  const tx_case different = {{10123456, 30, 10, 25600, 10340, 321654, 35721}, 1222089, 62824};
  check_tx(&different, &mixed);
  const scp_fee_config max = {I64MAX, I64MAX, I64MAX, I64MAX, I64MAX, I64MAX, I64MAX, I64MAX};
  const tx_case limits = {{U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX},
                          I64MAX, 9007199254740992};
  check_tx(&limits, &max);
}

/* ---- reference: compute_rent_fee -------------------------------------- */

#define P 1 /* persistent */
#define T 0 /* temporary */
#define CODE 1
#define DATA 0
typedef struct rent_case {
  scp_fee_rent_change c[8];
  size_t n;
  uint32_t ledger;
  int64_t fee;
} rent_case;

/* test_rent_extend_fees_with_only_extend (write entry fee 10) */
static const rent_case only_extend[] = {
  {{{P, DATA, 1, 1, 100000, 300000}}, 1, 50000, 20 + 24 + 10},
  {{{P, DATA, 10 * 1024, 10 * 1024, 100000, 100001}}, 1, 50000, 1 + 34},
  {{{P, DATA, 1, 1, 100000, 100001}}, 1, 50000, 1 + 34},
  {{{P, DATA, 10 * 1024, 10 * 1024, 100000, 300000}}, 1, 50000, 200000 + 34},
  {{{P, CODE, 10 * 1024, 10 * 1024, 100000, 300000}}, 1, 50000, 66667 + 34},
  {{{P, DATA, 10 * 1024, 5 * 1024, 100000, 300000}}, 1, 50000, 100000 + 34},
  {{{T, DATA, 10 * 1024, 10 * 1024, 100000, 300000}}, 1, 50000, 20000 + 34},
  {{{T, DATA, 10 * 1024, 10 * 1024, 100000, 300000},
    {P, DATA, 10 * 1024, 10 * 1024, 100000, 300000},
    {P, CODE, 10 * 1024, 10 * 1024, 100000, 300000},
    {P, DATA, 1, 1, 100000, 100001},
    {P, DATA, 1, 1, 100000, 300000},
    {P, DATA, 10 * 1024, 10 * 1024, 100000, 300000},
    {T, DATA, 10 * 1024, 10 * 1024, 100000, 300000}}, 7, 50000, 506688 + 165 + 70},
};

/* test_rent_extend_fees_with_only_size_change (write entry fee 100) */
static const rent_case only_size[] = {
  {{{P, DATA, 1, 100000, 100000, 100000}}, 1, 25000, 732425},
  {{{P, CODE, 1, 100000, 100000, 100000}}, 1, 25000, 244142}, /* div_ceil(732425, 3) */
  {{{T, DATA, 1, 100000, 100000, 100000}}, 1, 25000, 73243},
  {{{P, DATA, 99999, 100000, 100000, 100000}}, 1, 25000, 8},
  {{{P, DATA, 1, 100000, 100000, 100000}}, 1, 99999, 20},
  {{{P, DATA, 1, 100000, 100000, 100000},
    {P, CODE, 1, 100000, 100000, 100000},
    {T, DATA, 1, 100000, 100000, 100000}}, 3, 25000, 1049810},
};

/* test_rent_extend_with_size_change_and_extend (write entry fee 10) */
static const rent_case size_and_extend[] = {
  {{{P, DATA, 1, 100000, 100000, 300000}}, 1, 25000, 2685550 + 34},
  {{{P, CODE, 1, 100000, 100000, 300000}}, 1, 25000, 895184 + 34}, /* div_ceil(2685550, 3) */
  {{{T, DATA, 1, 100000, 100000, 300000}}, 1, 25000, 268556 + 34},
  {{{P, DATA, 1, 100000, 100000, 300000},
    {P, CODE, 1, 100000, 100000, 300000},
    {T, DATA, 1, 100000, 100000, 300000}}, 3, 25000, 3849290 + 71 + 30},
  {{{P, DATA, 1, 2, 100000, 100001}}, 1, 99999, 2 + 34},
};

/* test_rent_extend_without_old_entry (write entry fee 10) */
static const rent_case new_entry[] = {
  {{{P, DATA, 0, 100000, 0, 100000}}, 1, 25000, 732432 + 34},
  {{{T, DATA, 0, 100000, 0, 100000}}, 1, 25000, 73244 + 34},
};

static void check_rent(const rent_case *cases, size_t n, const scp_fee_rent_config *cfg) {
  for (size_t i = 0; i < n; i++) {
    scp_fee_rent_breakdown b;
    assert_int_equal(scp_fee_rent(cases[i].c, cases[i].n, cfg, cases[i].ledger, &b),
                     cases[i].fee);
    assert_int_equal(b.total, cases[i].fee);
    assert_int_equal(b.entries + b.ttl_entries + b.ttl_bytes, cases[i].fee);
  }
}

static void test_ref_rent(void **state) {
  (void)state;
  /* write_1kb, rent_1kb, write_entry, persistent and temporary denominators */
  const scp_fee_rent_config c10 = {500, 1000, 10, 10000, 100000};
  const scp_fee_rent_config c100 = {500, 1000, 100, 10000, 100000};
  check_rent(only_extend, sizeof only_extend / sizeof *only_extend, &c10);
  check_rent(only_size, sizeof only_size / sizeof *only_size, &c100);
  check_rent(size_and_extend, sizeof size_and_extend / sizeof *size_and_extend, &c10);
  check_rent(new_entry, sizeof new_entry / sizeof *new_entry, &c10);
}

/* ---- reference: compute_rent_write_fee_per_1kb ------------------------ */

static void test_ref_rent_write_fee(void **state) {
  (void)state;
  const scp_fee_rent_write_config c = {100000, 100, 10000, 50};
  assert_int_equal(scp_fee_rent_write_per_1kb(0, &c), SCP_FEE_MINIMUM_RENT_WRITE_FEE_PER_1KB);
  assert_int_equal(scp_fee_rent_write_per_1kb(50000, &c), 100 + (10000 - 100) / 2);
  assert_int_equal(scp_fee_rent_write_per_1kb(56789, &c), 5723);
  assert_int_equal(scp_fee_rent_write_per_1kb(100000, &c), 10000);
  assert_int_equal(scp_fee_rent_write_per_1kb(150000, &c), 10000 + 50 * (10000 - 100) / 2);
  assert_int_equal(scp_fee_rent_write_per_1kb(580000, &c), 10000 + 2376000);

  const scp_fee_rent_write_config large = {100000000000000, 1000000, 1000000000, 50};
  assert_int_equal(scp_fee_rent_write_per_1kb(50000000000000, &large),
                   1000000 + (1000000000 - 1000000) / 2);
  assert_int_equal(scp_fee_rent_write_per_1kb(150000000000000, &large),
                   1000000000 + 50 * (1000000000LL - 1000000) / 2);

  /* test_compute_write_fee_with_negative_low */
  const scp_fee_rent_write_config neg = {100000, -1000, 10000, 50};
  assert_int_equal(scp_fee_rent_write_per_1kb(18181, &neg), SCP_FEE_MINIMUM_RENT_WRITE_FEE_PER_1KB);
  assert_int_equal(scp_fee_rent_write_per_1kb(18182, &neg),
                   SCP_FEE_MINIMUM_RENT_WRITE_FEE_PER_1KB + 1);
  assert_int_equal(scp_fee_rent_write_per_1kb(150000, &neg), 10000 + 50 * (10000 + 1000) / 2);

  /* test_compute_write_fee_clamp_after_target */
  const scp_fee_rent_write_config clamp = {100000, 10, 20, 50};
  assert_int_equal(scp_fee_rent_write_per_1kb(100001, &clamp),
                   SCP_FEE_MINIMUM_RENT_WRITE_FEE_PER_1KB);
}

/* ---- worked by hand ----------------------------------------------------- */

/* Each component alone, with the mainnet protocol-23 rates (fee per 10k
 * instructions 25, read entry 5,000, write entry 10,000, read 1 KB 1,786,
 * write 1 KB 3,500, history 1 KB 16,235, event 1 KB 10,000, tx 1 KB 1,624). */
static const scp_fee_config mainnet = {25, 5000, 10000, 1786, 3500, 16235, 10000, 1624};

static void test_hand_components(void **state) {
  (void)state;
  scp_fee_breakdown b;
  /* 1,234,567 instructions: 1234567 * 25 / 10000 = 3086.4175 -> 3087 */
  scp_fee_transaction(&(scp_fee_resources){1234567, 2, 3, 1000, 500, 100, 700}, &mainnet, &b);
  assert_int_equal(b.compute, 3087);
  /* 2 read entries * 5000, 3 write entries * 10000 */
  assert_int_equal(b.disk_read_entries, 10000);
  assert_int_equal(b.write_entries, 30000);
  /* 1000 B * 1786 / 1024 = 1744.14 -> 1745 */
  assert_int_equal(b.disk_read_bytes, 1745);
  /* 500 B * 3500 / 1024 = 1708.98 -> 1709 */
  assert_int_equal(b.write_bytes, 1709);
  /* (700 + 300) * 16235 / 1024 = 15854.49 -> 15855 */
  assert_int_equal(b.historical, 15855);
  /* 700 * 1624 / 1024 = 1110.16 -> 1111 */
  assert_int_equal(b.bandwidth, 1111);
  /* 100 * 10000 / 1024 = 976.56 -> 977, the only refundable part */
  assert_int_equal(b.events, 977);
  assert_int_equal(b.refundable, 977);
  /* the total is the sum of ceilings: 3087+10000+30000+1745+1709+15855+1111 */
  assert_int_equal(b.non_refundable, 63507);
  /* exact multiples round to themselves: 20,000 instructions -> 50 */
  assert_int_equal(scp_fee_per_increment(20000, 25, 10000), 50);
  assert_int_equal(scp_fee_per_increment(20001, 25, 10000), 51);
  assert_int_equal(scp_fee_per_increment(0, 25, 10000), 0);
}

static void test_hand_rent(void **state) {
  (void)state;
  /* round rates: write 1 KB 3,500, rent 1 KB 10,000, write entry 10,000,
   * persistent and temporary denominators 2,000 and 4,000 */
  const scp_fee_rent_config c = {3500, 10000, 10000, 2000, 4000};
  /* a new persistent 200-byte entry created at ledger 1000 living until
   * 1000 + 120959: 120960 ledgers * 200 B * 10000 / (1024 * 2000)
   * = 241920000000 / 2048000 = 118125 exactly */
  scp_fee_rent_change create = {true, false, 0, 200, 0, 1000 + 120959};
  assert_int_equal(scp_fee_rent_entry(&create, &c, 1000), 118125);
  /* the same as temporary: / (1024 * 4000) = 59062.5 -> 59063 */
  create.is_persistent = false;
  assert_int_equal(scp_fee_rent_entry(&create, &c, 1000), 59063);
  /* a code entry: ceil(118125 / 3) = 39375 */
  scp_fee_rent_change code = {true, true, 0, 200, 0, 1000 + 120959};
  assert_int_equal(scp_fee_rent_entry(&code, &c, 1000), 39375);
  /* growing 200 -> 300 bytes with 10 ledgers prepaid (1000..1009) and no
   * extension: 100 B * 10000 * 10 / 2048000 = 4.88 -> 5 */
  scp_fee_rent_change grow = {true, false, 200, 300, 1009, 1009};
  scp_fee_rent_breakdown b;
  assert_int_equal(scp_fee_rent(&grow, 1, &c, 1000, &b), 5);
  assert_int_equal(b.extended, 0);
  assert_int_equal(b.ttl_entries, 0);
  /* a shrink with no extension costs nothing */
  scp_fee_rent_change shrink = {true, false, 300, 200, 1009, 1009};
  assert_int_equal(scp_fee_rent_entry(&shrink, &c, 1000), 0);
  /* an extension by 1 ledger of a 1-byte entry: ceil(10000 / 2048000) = 1,
   * plus one TTL entry write 10000 and ceil(48 * 3500 / 1024) = 165 */
  scp_fee_rent_change ext = {true, false, 1, 1, 1009, 1010};
  assert_int_equal(scp_fee_rent(&ext, 1, &c, 1000, &b), 1 + 10000 + 165);
  assert_int_equal(b.ttl_bytes, 165);
  assert_int_equal(b.extended, 1);
  /* a deleted entry (new size and live-until 0) pays nothing */
  scp_fee_rent_change del = {true, false, 300, 0, 1009, 0};
  assert_int_equal(scp_fee_rent(&del, 1, &c, 1000, NULL), 0);
}

static void test_hand_rent_write_fee(void **state) {
  (void)state;
  /* the protocol-23 low and high fees and target (-17,000, 10,000, 3 GB)
   * with a growth factor of 1 */
  const scp_fee_rent_write_config c = {3000000000, -17000, 10000, 1};
  /* 27000 * 2e9 / 3e9 = 18000 exactly; + (-17000) = 1000 */
  assert_int_equal(scp_fee_rent_write_per_1kb(2000000000, &c), 1000);
  /* 27000 * 2.5e9 / 3e9 = 22500; - 17000 = 5500 */
  assert_int_equal(scp_fee_rent_write_per_1kb(2500000000, &c), 5500);
  /* 27000 * 2,500,000,001 / 3e9 = 22500.000009 -> 22501; - 17000 */
  assert_int_equal(scp_fee_rent_write_per_1kb(2500000001, &c), 5501);
  /* past the target by 1e9 with growth 1: 10000 + 27000 / 3 = 19000 */
  assert_int_equal(scp_fee_rent_write_per_1kb(4000000000, &c), 19000);
  /* a slope overflowing i128 saturates and clamps to i64::MAX, which
   * saturates the addition too */
  const scp_fee_rent_write_config huge = {1, 0, I64MAX, UINT32_MAX};
  assert_int_equal(scp_fee_rent_write_per_1kb(I64MAX, &huge), I64MAX);
  /* a negative slope is taken as i64::MAX (fail closed): half-way to the
   * target that is ceil(i64::MAX / 2) = 2^62, plus the low fee 10 */
  const scp_fee_rent_write_config neg = {1000, 10, 5, 1};
  assert_int_equal(scp_fee_rent_write_per_1kb(500, &neg), ((int64_t)1 << 62) + 10);
}


/* ---- network profiles and settings files -------------------------------- */

static void test_network_profiles(void **state) {
  (void)state;
  scp_fee_network m, t;
  /* the protocol-23 profiles (every value of every profile is pinned in
   * test_fee_net.c) */
  assert_true(scp_fee_network_named("mainnet@2026-01-12", &m));
  assert_true(scp_fee_network_named("testnet", &t));
  assert_false(scp_fee_network_named("futurenet", &t));
  assert_true(scp_fee_network_named("testnet@2025-08-14", &t));
  assert_int_equal(m.fee.fee_per_instruction_increment, 25);
  assert_int_equal(m.fee.fee_per_write_1kb, 3500);
  assert_int_equal(m.min_persistent_ttl, 2073600);
  assert_int_equal(t.min_persistent_ttl, 120960);
  assert_int_equal(m.limit[SCP_FEE_LIM_WRITE_ENTRIES], 50);
  assert_string_equal(scp_fee_limit_name(SCP_FEE_LIM_WRITE_BYTES), "tx_max_write_bytes");
  /* 553,688,657 bytes of state: 27000 * 553688657 / 3e9 = 4983.2 -> 4984,
   * - 17000 < 0, so the rent fee is the 1,000 floor */
  scp_fee_rent_config rc;
  scp_fee_network_rent(&m, &rc);
  assert_int_equal(rc.fee_per_rent_1kb, 1000);
  assert_int_equal(rc.fee_per_write_1kb, 3500);
  assert_int_equal(rc.persistent_rent_rate_denominator, 1215);
  /* 2.5 GB of state: 27000 * 2.5e9 / 3e9 - 17000 = 5500 */
  m.soroban_state_size = 2500000000u;
  scp_fee_network_rent(&m, &rc);
  assert_int_equal(rc.fee_per_rent_1kb, 5500);
}

static void test_network_file(void **state) {
  (void)state;
  /* the shipped protocol-23 testnet settings file, applied on nothing, is
   * the testnet profile of its date */
  scp_fee_network want, got;
  memset(&got, 0, sizeof got);
  assert_true(scp_fee_network_named("testnet@2025-08-14", &want));
  scp_error err = {0};
  assert_int_equal(scp_fee_network_load("examples/network/testnet-p23.json", &got, &err), SCP_OK);
  assert_memory_equal(&got.fee, &want.fee, sizeof want.fee);
  assert_memory_equal(&got.rent_write, &want.rent_write, sizeof want.rent_write);
  assert_memory_equal(got.limit, want.limit, sizeof want.limit);
  assert_int_equal(got.persistent_rent_rate_denominator, 1215);
  assert_int_equal(got.temporary_rent_rate_denominator, 2430);
  assert_int_equal(got.min_temporary_ttl, 720);
  assert_int_equal(got.max_entry_ttl, 3110400);
  assert_int_equal(got.soroban_state_size, want.soroban_state_size);
}

static int write_tmp(char *path, const char *text) {
  strcpy(path, "/tmp/scprof-fees-XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return -1;
  size_t n = strlen(text);
  int ok = write(fd, text, n) == (ssize_t)n;
  close(fd);
  return ok ? 0 : -1;
}

static void test_network_file_errors(void **state) {
  (void)state;
  scp_fee_network n, before;
  assert_true(scp_fee_network_named("mainnet", &n));
  before = n;
  char path[64];
  scp_error err = {0};
  /* an upgrade changes what it names, the rest stays; the window is
   * averaged, rounded down: (10 + 11) / 2 = 10 */
  assert_int_equal(write_tmp(path, "{\"updated_entry\": [{\"contract_compute_v0\": "
                   "{\"fee_rate_per_instructions_increment\": \"7\"}}, "
                   "{\"live_soroban_state_size_window\": [\"10\", \"11\"]}, "
                   "{\"scp_timing\": {\"ledger_target_close_time_milliseconds\": 5000}}]}"), 0);
  assert_int_equal(scp_fee_network_load(path, &n, &err), SCP_OK);
  assert_int_equal(n.fee.fee_per_instruction_increment, 7);
  assert_int_equal(n.soroban_state_size, 10);
  assert_int_equal(n.fee.fee_per_write_1kb, before.fee.fee_per_write_1kb);
  unlink(path);
  /* a value out of range names the setting; nothing changes */
  n = before;
  assert_int_equal(write_tmp(path, "{\"updated_entry\": [{\"state_archival\": "
                   "{\"min_persistent_ttl\": -1}}]}"), 0);
  assert_int_equal(scp_fee_network_load(path, &n, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "state_archival.min_persistent_ttl is out of range"));
  assert_non_null(strstr(err.msg, path));
  assert_int_equal(n.min_persistent_ttl, before.min_persistent_ttl);
  unlink(path);
  assert_int_equal(write_tmp(path, "{\"updated_entry\": [{\"contract_events_v0\": "
                   "{\"fee_contract_events1_kb\": \"12x\"}}]}"), 0);
  assert_int_equal(scp_fee_network_load(path, &n, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "contract_events_v0.fee_contract_events1_kb is not an integer"));
  unlink(path);
  assert_int_equal(write_tmp(path, "{\"entries\": 1}"), 0);
  assert_int_equal(scp_fee_network_load(path, &n, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "ConfigUpgradeSet"));
  unlink(path);
  assert_int_equal(write_tmp(path, "{\"updated_entry\": ["), 0);
  assert_int_equal(scp_fee_network_load(path, &n, &err), SCP_ERR_MALFORMED);
  unlink(path);
  assert_int_equal(scp_fee_network_load("/nonexistent/net.json", &n, &err), SCP_ERR_IO);
  assert_non_null(strstr(err.msg, "/nonexistent/net.json"));
}

/* A settings file's settings and fields are all known: a misspelt one is
 * refused with the nearest name, never skipped. */
static void test_file_keys(void **state) {
  (void)state;
  scp_fee_network n;
  assert_true(scp_fee_network_named("mainnet", &n));
  char path[64];
  scp_error err = {0};
  assert_int_equal(write_tmp(path, "{\"updated_entry\": [{\"contract_compute_v0\": "
                   "{\"fee_rate_per_instruction_increment\": 9}}]}"), 0);
  assert_int_equal(scp_fee_network_load(path, &n, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "updated_entry[0].contract_compute_v0: unknown key "
                                  "\"fee_rate_per_instruction_increment\"; did you mean "
                                  "\"fee_rate_per_instructions_increment\"?"));
  assert_int_equal(n.fee.fee_per_instruction_increment, 7);
  unlink(path);
  assert_int_equal(write_tmp(path, "{\"updated_entry\": [{\"state_archival\": {}}, "
                   "{\"contract_event_v0\": {}}]}"), 0);
  assert_int_equal(scp_fee_network_load(path, &n, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "updated_entry[1]: unknown key \"contract_event_v0\"; did you mean "
                                  "\"contract_events_v0\"?"));
  unlink(path);
  assert_int_equal(write_tmp(path, "{\"updated_entry\": [], \"extra\": 1}"), 0);
  assert_int_equal(scp_fee_network_load(path, &n, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "unknown key \"extra\""));
  unlink(path);
  /* what the fee does not use is known and skipped; a u64 beyond i64 is
   * out of range for an i64 fee, not wrapped */
  assert_int_equal(write_tmp(path, "{\"updated_entry\": [{\"scp_timing\": "
                   "{\"ledger_target_close_time_milliseconds\": 5000}}, {\"eviction_iterator\": {}}, "
                   "{\"contract_parallel_compute_v0\": {\"ledger_max_dependent_tx_clusters\": 2}}]}"), 0);
  assert_int_equal(scp_fee_network_load(path, &n, &err), SCP_OK);
  assert_string_equal(n.base, "mainnet");
  assert_string_equal(n.date, "2026-07-29");
  unlink(path);
  assert_int_equal(write_tmp(path, "{\"updated_entry\": [{\"contract_events_v0\": "
                   "{\"fee_contract_events1_kb\": 9223372036854775808}}]}"), 0);
  assert_int_equal(scp_fee_network_load(path, &n, &err), SCP_ERR_MALFORMED);
  assert_non_null(strstr(err.msg, "contract_events_v0.fee_contract_events1_kb is out of range"));
  unlink(path);
}

/* ---- attribution: the split of a component over nodes ---------------- */

static void test_split(void **state) {
  (void)state;
  uint64_t s[4];
  /* 10 over 1:1:1 = 3.33 each: 3 + 3 + 3, one left, to the first */
  const uint64_t w3[] = {1, 1, 1};
  assert_int_equal(scp_fee_split(w3, 3, 10, s), SCP_OK);
  assert_int_equal(s[0], 4);
  assert_int_equal(s[1], 3);
  assert_int_equal(s[2], 3);
  /* 1,927 over 460,768 : 175,345 : 134,388 (sum 770,501)
   * = 1,152.37 : 438.53 : 336.10 -> floors 1,152 + 438 + 336 = 1,926; the
   * largest remainder (0.53, the second) gets the last stroop */
  const uint64_t cpu[] = {460768, 175345, 134388};
  assert_int_equal(scp_fee_split(cpu, 3, 1927, s), SCP_OK);
  assert_int_equal(s[0], 1152);
  assert_int_equal(s[1], 439);
  assert_int_equal(s[2], 336);
  /* exact multiples need no leftover; a zero weight gets nothing */
  const uint64_t bytes[] = {148, 0, 148, 76};
  assert_int_equal(scp_fee_split(bytes, 4, 372 * 10, s), SCP_OK);
  assert_int_equal(s[0], 1480);
  assert_int_equal(s[1], 0);
  assert_int_equal(s[2], 1480);
  assert_int_equal(s[3], 760);
  /* the transfer's write-bytes fee, 1,272 over 148 : 148 : 76 (sum 372)
   * = 506.06 : 506.06 : 259.87 -> floors 1,271; the last stroop to the
   * largest remainder, the nonce's 0.87 */
  const uint64_t wb[] = {148, 148, 76};
  assert_int_equal(scp_fee_split(wb, 3, 1272, s), SCP_OK);
  assert_int_equal(s[0], 506);
  assert_int_equal(s[1], 506);
  assert_int_equal(s[2], 260);
  const uint64_t none[] = {0, 0};
  assert_int_equal(scp_fee_split(none, 2, 5, s), SCP_ERR_ARG);
  /* large amounts stay exact (128-bit products) */
  const uint64_t big[] = {UINT64_MAX / 2, UINT64_MAX / 2};
  assert_int_equal(scp_fee_split(big, 2, (uint64_t)I64MAX, s), SCP_OK);
  assert_int_equal(s[0] + s[1], (uint64_t)I64MAX);
  assert_int_equal(s[0], (uint64_t)I64MAX / 2 + 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_ref_single_resource),
    cmocka_unit_test(test_ref_resource_fee),
    cmocka_unit_test(test_ref_rent),
    cmocka_unit_test(test_ref_rent_write_fee),
    cmocka_unit_test(test_hand_components),
    cmocka_unit_test(test_hand_rent),
    cmocka_unit_test(test_hand_rent_write_fee),
    cmocka_unit_test(test_network_profiles),
    cmocka_unit_test(test_network_file),
    cmocka_unit_test(test_network_file_errors),
    cmocka_unit_test(test_file_keys),
    cmocka_unit_test(test_split),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
