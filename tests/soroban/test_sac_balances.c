/*
 * test_sac_balances.c — the one Stellar Asset Contract trace still checked
 * in parts: test_cap_67_transfer_with_muxed_accounts.json.
 *
 * Every other token call (balances of accounts, trustlines and contracts,
 * clawback, set_authorized, trust, XLM transfers creating accounts, ...)
 * is checked whole in test_sac_whole.c, with the traces' keys and signed
 * entries in enforcing mode.  This test enables the reference's
 * invocation metering (a testutils feature scprof does not model): the
 * budget and the storage footprint are reset as each top-level call
 * begins, after the call's own argument checks, so its traced totals
 * count from a point inside the call.  Here the calls run in recording
 * mode with the footprint reset by hand and are checked in the parts
 * that do not depend on where that reset falls or on the signed entry:
 * from the SAC frame's push to require_auth, and from to_mux.id() to the
 * frame's pop (sac_private.h's probe).
 *
 * Set-up as test_sac.c: the replay driver's host (budget from cpu 14285,
 * mem 0), the issuer's account (default_stellar_asset_contract: balance
 * 10_000_000, one sub-entry, its key as signer of weight 100, flags
 * AUTH_REVOCABLE | AUTH_CLAWBACK_ENABLED), create_asset_contract("aaaa").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soroban/core/host_lifecycle.h"
#include "soroban/core/host_private.h"
#include "soroban/sac/sac_private.h"
#include "soroban/sac/host_sac.h"

#include "host_fixture.h"

static void be64_put(uint8_t *p, int64_t v) {
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)((uint64_t)v >> (56 - 8 * i));
}

static void be32_put(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/* create_account (builtin_contracts/testutils.rs): an AccountEntry with
 * one ed25519 signer (the account's own key) when weight > 0, ext V0. */
static void seed_account(fixture *f, uint8_t who, int64_t balance, uint32_t num_sub,
                         uint32_t flags, uint32_t weight) {
  uint8_t e[120] = { 0 };
  size_t n = 0;
  memset(e + 4, who, 32);
  be64_put(e + 36, balance);
  be32_put(e + 52, num_sub);
  be32_put(e + 60, flags);
  e[68] = 1;   /* thresholds [1, 0, 0, 0] */
  if (weight) {
    be32_put(e + 72, 1);
    memset(e + 80, who, 32);
    be32_put(e + 112, weight);
    n = 120;
  } else {
    n = 80;
  }
  scp_lkey k = { .type = SCP_LK_ACCOUNT };
  memset(k.id, who, 32);
  assert_int_equal(scp_storage_seed(f->h, &k, e, (uint32_t)n, 0, true), SCP_OK);
}



/* create_trustline: an "aaaa" trustline of who (balance 0, limit
 * i64::MAX, flags), ext V0. */
static void seed_trustline(fixture *f, uint8_t who, uint32_t flags) {
  uint8_t tl[36 + 44 + 24] = { 0 }, asset[44] = { 0 };
  asset[3] = 1;
  memcpy(asset + 4, "aaaa", 4);
  memset(asset + 12, 0x11, 32);
  scp_lkey tk = { .type = SCP_LK_TRUSTLINE, .key = asset, .keylen = 44 };
  memset(tk.id, who, 32);
  memset(tl + 4, who, 32);
  memcpy(tl + 36, asset, 44);
  be64_put(tl + 88, INT64_MAX);
  be32_put(tl + 96, flags);
  assert_int_equal(scp_storage_seed(f->h, &tk, tl, sizeof tl, 0, true), SCP_OK);
}

static scp_sentry *trustline(fixture *f, uint8_t who) {
  for (size_t i = 0; i < f->h->nstore; i++) {
    scp_sentry *e = &f->h->store[i];
    if (e->present && e->k.type == SCP_LK_TRUSTLINE && e->k.id[0] == who) return e;
  }
  return NULL;
}

static int64_t tl_balance(fixture *f, uint8_t who) {
  scp_sentry *e = trustline(f, who);
  assert_non_null(e);
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | e->val[80 + i];
  return (int64_t)v;
}



/* The issuer 0x11 (default_stellar_asset_contract), then
 * create_asset_contract("aaaa"); the base PRNG seed of zeros. */
static uint64_t aaaa_contract(fixture *f) {
  uint8_t seed[32] = { 0 }, b[44] = { 0 };
  assert_int_equal(scp_host_set_base_prng_seed(f->h, seed), SCP_OK);
  seed_account(f, 0x11, 10000000, 1, SCP_ACCT_AUTH_REVOCABLE | SCP_ACCT_CLAWBACK_ENABLED, 100);
  b[3] = 1;
  memcpy(b + 4, "aaaa", 4);
  memset(b + 12, 0x11, 32);
  uint64_t arg, addr = 0;
  scp_error err;
  assert_int_equal(scp_host_memobj_new_from_slice(f->h, SCP_TAG_BYTES_OBJ, b, 44, &arg), SCP_OK);
  assert_int_equal(scp_host_call(f->h, fn("create_asset_contract"), &arg, NULL, &addr, &err), SCP_OK);
  f->h->opts.auth_enforcing = false;
  f->h->opts.auth_disable_non_root = true;
  f->h->opts.ledger_sequence = 123;
  return addr;
}

static uint64_t address(fixture *f, uint8_t kind, uint8_t who) {
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = calloc(1, 33);
  o.u.bytes[0] = kind;
  memset(o.u.bytes + 1, who, 32);
  uint64_t v;
  assert_int_equal(scp_host_add_obj(f->h, &o, &v), SCP_OK);
  return v;
}

/* The budget at the SAC frame's push, around require_auth and at its pop. */
static uint64_t probe_cpu[SCP_SAC_PROBE_COUNT], probe_mem[SCP_SAC_PROBE_COUNT], start_cpu, start_mem;
static void probe(scp_host *h, int where) {
  probe_cpu[where] = h->budget->cpu;
  probe_mem[where] = h->budget->mem;
}

/* call(asset, name, [args]) with the probe: the status; *dcpu / *dmem the
 * budget's delta from after the args' Vec to the return. */
static int call(fixture *f, uint64_t asset, const char *name, const uint64_t *v, uint32_t n,
                uint64_t *ret, uint64_t *dcpu, uint64_t *dmem) {
  uint64_t args, sym;
  scp_error err;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, v, n, &args), SCP_OK);
  uint64_t cpu = f->b.cpu, mem = f->b.mem;
  start_cpu = cpu;
  start_mem = mem;
  assert_int_equal(scp_host_symbol_val(f->h, name, &sym), SCP_OK);
  uint64_t a[3] = { asset, sym, args };
  memset(probe_cpu, 0, sizeof probe_cpu);
  memset(probe_mem, 0, sizeof probe_mem);
  scp_sac_probe = probe;
  int rc = scp_host_call(f->h, fn("call"), a, NULL, ret, &err);
  scp_sac_probe = NULL;
  if (rc != SCP_OK) print_message("%s: %d %s\n", name, rc, err.msg);
  if (dcpu) *dcpu = f->b.cpu - cpu;
  if (dmem) *dmem = f->b.mem - mem;
  return rc;
}


static uint64_t i128(int64_t v) { return scp_val_small_i(v, SCP_TAG_I128_SMALL); }



















/* Storage::reset_footprint, as the reference's invocation metering does
 * before each top-level call (the entries stay, the footprint restarts:
 * each key's first access in the call records it again). */
static void reset_footprint(fixture *f) {
  for (size_t i = 0; i < f->h->nfoot; i++) scp_lkey_free(&f->h->foot[i].k);
  f->h->nfoot = 0;
}

/* A muxed transfer: the push to require_auth, and from to_mux.id() to the
 * pop (the event with its {amount, to_muxed_id} data). */
static void check_pre_auth_and_tail(uint64_t push_cpu, uint64_t push_mem, uint64_t auth_cpu,
                                    uint64_t auth_mem, uint64_t id_cpu, uint64_t id_mem,
                                    uint64_t pop_cpu, uint64_t pop_mem) {
  assert_int_equal(probe_cpu[SCP_SAC_PROBE_AUTH] - probe_cpu[SCP_SAC_PROBE_PUSHED], auth_cpu - push_cpu);
  assert_int_equal(probe_mem[SCP_SAC_PROBE_AUTH] - probe_mem[SCP_SAC_PROBE_PUSHED], auth_mem - push_mem);
  assert_int_equal(probe_cpu[SCP_SAC_PROBE_POPPING] - probe_cpu[SCP_SAC_PROBE_MUXED_ID], pop_cpu - id_cpu);
  assert_int_equal(probe_mem[SCP_SAC_PROBE_POPPING] - probe_mem[SCP_SAC_PROBE_MUXED_ID], pop_mem - id_mem);
}

static uint64_t muxed(fixture *f, uint8_t who, uint64_t id) {
  scp_hobj o = { .tag = SCP_TAG_MUXED_ADDRESS_OBJ, .len = 41 };
  o.u.bytes = calloc(1, 41);
  o.u.bytes[0] = 2;
  for (int i = 0; i < 8; i++) o.u.bytes[1 + i] = (uint8_t)(id >> (56 - 8 * i));
  memset(o.u.bytes + 9, who, 32);
  uint64_t v;
  assert_int_equal(scp_host_add_obj(f->h, &o, &v), SCP_OK);
  return v;
}



/* test_cap_67_transfer_with_muxed_accounts.json: users 0x33 and 0x22
 * with accounts and trustlines, user minted 100_000_000.
 * transfer(user, muxed(user_2, 567_890), 9_999_999): from the push
 * (17456, 4026) to require_auth (18926, 4106) the dispatcher and
 * get_address_from_muxed_address; from its return (482746, 14216) to the
 * pop (550408, 22778): the balances, get_id_from_muxed_address, the
 * transfer event with data {amount, to_muxed_id} (map_new, two map_put).
 * With the id u64::MAX (a U64 object: obj_to_u64, obj_from_u64): push
 * 17498 / 4094, require_auth 18968 / 4174, return 483024 / 14420, pop
 * 552217 / 23278.  A plain Address: push 17514 / 4162, require_auth
 * 18316, return 483054 / 14532, pop 546539 / 22915.  From the issuer to
 * muxed(user_2, 1): a mint event with the muxed data: push 17682 / 4230,
 * require_auth 19152 / 4310, return 481917 / 13982, pop 539446 / 21026.
 * The test enables invocation metering, which restarts the storage
 * footprint before each call: so does this one.  The traces' enforcing-mode
 * require_auth reads the signer's account and nonce into that fresh
 * footprint, which recording mode does not, so the balances' first
 * accesses after it record into a footprint of another size (257 CPU
 * apart in the first transfer): checked are the push to require_auth and
 * from to_mux.id() to the pop. */
static void test_transfer_muxed(void **state) {
  fixture *f = *state;
  uint64_t sac = aaaa_contract(f), ret, v[3];
  seed_account(f, 0x33, 0, 0, 0, 1);
  seed_account(f, 0x22, 0, 0, 0, 1);
  seed_trustline(f, 0x33, SCP_TL_AUTHORIZED | SCP_TL_CLAWBACK_ENABLED);
  seed_trustline(f, 0x22, SCP_TL_AUTHORIZED | SCP_TL_CLAWBACK_ENABLED);
  uint64_t user = address(f, 0, 0x33), user2 = address(f, 0, 0x22);
  v[0] = user;
  v[1] = i128(100000000);
  assert_int_equal(call(f, sac, "mint", v, 2, &ret, NULL, NULL), SCP_OK);
  size_t ev = scp_host_event_count(f->h);
  v[1] = muxed(f, 0x22, 567890);
  v[2] = i128(9999999);
  reset_footprint(f);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_OK);
  check_pre_auth_and_tail(17456, 4026, 18926, 4106, 534633, 21638, 550408, 22778);
  assert_int_equal(scp_host_event_count(f->h), ev + 1);
  assert_int_equal(tl_balance(f, 0x22), 9999999);
  v[1] = muxed(f, 0x22, UINT64_MAX);
  v[2] = i128(1);
  reset_footprint(f);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_OK);
  check_pre_auth_and_tail(17498, 4094, 18968, 4174, 535155, 21978, 552217, 23278);
  v[0] = user2;
  v[1] = user;
  v[2] = i128(5000000);
  reset_footprint(f);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(probe_cpu[SCP_SAC_PROBE_AUTH] - probe_cpu[SCP_SAC_PROBE_PUSHED], 18316 - 17514);
  v[0] = address(f, 0, 0x11);
  v[1] = muxed(f, 0x22, 1);
  v[2] = i128(2);
  reset_footprint(f);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_OK);
  check_pre_auth_and_tail(17682, 4230, 19152, 4310, 527439, 20078, 539446, 21026);
  assert_int_equal(tl_balance(f, 0x22), 5000002);
}



int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_transfer_muxed, fixture_open_sac, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
