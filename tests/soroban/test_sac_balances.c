/*
 * test_sac_balances.c — the Stellar Asset Contract's balances of contract
 * addresses (sac_cbalance.c) and the admin functions clawback,
 * set_authorized, authorized (sac_admin.c), checked against the
 * reference's traces.
 *
 * Set-up as test_sac.c: the replay driver's host (budget from cpu 14285,
 * mem 0), the issuer's account (default_stellar_asset_contract: balance
 * 10_000_000, one sub-entry, its key as signer of weight 100, flags
 * AUTH_REVOCABLE | AUTH_CLAWBACK_ENABLED), create_asset_contract("aaaa").
 * The traces authorize with signed entries in enforcing mode, which
 * scprof does not model; as in test_sac.c the calls run in recording mode
 * and are checked on both sides of require_auth (sac_private.h's probe):
 * from the frame's push to require_auth, and from its return to the
 * frame's pop.  Calls without require_auth (balance, authorized, the
 * errors before it) are checked whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "soroban/host_lifecycle.h"
#include "soroban/host_private.h"
#include "soroban/sac_private.h"
#include "soroban/host_sac.h"

typedef struct fixture {
  scp_budget b;
  scp_host *h;
} fixture;

static int setup(void **state) {
  fixture *f = calloc(1, sizeof *f);
  scp_budget_init(&f->b, UINT64_MAX, UINT64_MAX);
  scp_host_opts o = { .auth_enforcing = true };
  if (scp_host_create(&f->b, &o, &f->h)) return -1;
  f->b.cpu = 14285;
  f->b.mem = f->b.mem_peak = 0;
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fixture *f = *state;
  scp_host_destroy(f->h);
  free(f);
  return 0;
}

static unsigned fn(const char *name) {
  int id = scp_hostfn_find_name(name);
  assert_true(id >= 0);
  return (unsigned)id;
}

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

static scp_sentry *account_entry(fixture *f, uint8_t who) {
  for (size_t i = 0; i < f->h->nstore; i++) {
    scp_sentry *e = &f->h->store[i];
    if (e->present && e->k.type == SCP_LK_ACCOUNT && e->k.id[0] == who) return e;
  }
  return NULL;
}

static void set_account_flags(fixture *f, uint8_t who, uint32_t flags) {
  scp_sentry *e = account_entry(f, who);
  assert_non_null(e);
  be32_put(e->val + 60, flags);
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

static uint32_t tl_flags(fixture *f, uint8_t who) {
  scp_sentry *e = trustline(f, who);
  assert_non_null(e);
  return scp_be32(e->val + 96);
}

static void set_tl_flags(fixture *f, uint8_t who, uint32_t flags) {
  scp_sentry *e = trustline(f, who);
  assert_non_null(e);
  be32_put(e->val + 96, flags);
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

/* Both sides of require_auth against the trace's budget at the push,
 * the require_auth call, its return and the pop. */
static void check_sides(uint64_t push_cpu, uint64_t push_mem, uint64_t auth_cpu,
                        uint64_t auth_mem, uint64_t authed_cpu, uint64_t authed_mem,
                        uint64_t pop_cpu, uint64_t pop_mem) {
  assert_int_equal(probe_cpu[SCP_SAC_PROBE_AUTH] - probe_cpu[SCP_SAC_PROBE_PUSHED], auth_cpu - push_cpu);
  assert_int_equal(probe_mem[SCP_SAC_PROBE_AUTH] - probe_mem[SCP_SAC_PROBE_PUSHED], auth_mem - push_mem);
  assert_int_equal(probe_cpu[SCP_SAC_PROBE_POPPING] - probe_cpu[SCP_SAC_PROBE_AUTHED], pop_cpu - authed_cpu);
  assert_int_equal(probe_mem[SCP_SAC_PROBE_POPPING] - probe_mem[SCP_SAC_PROBE_AUTHED], pop_mem - authed_mem);
}

static uint64_t i128(int64_t v) { return scp_val_small_i(v, SCP_TAG_I128_SMALL); }

/* test_clawback_on_contract.json: mint(C1, 100_000_000) creates C1's
 * balance entry {100_000_000, authorized, clawback (the issuer's flag)}:
 * from the push (148403 CPU, 25533 bytes) to require_auth (165907, 27260):
 * check_not_issuer, read_administrator; from its return (623464, 35118)
 * to the pop (679292, 43460): the instance's TTL bump, is_authorized (no
 * entry: the issuer's AUTH_REQUIRED flag, load_account), the entry's read
 * again, the issuer's clawback flag, the write and its TTL extension, the
 * mint event. */
static void test_mint_to_contract(void **state) {
  fixture *f = *state;
  uint64_t sac = aaaa_contract(f), ret, v[2];
  uint64_t c1 = address(f, 1, 0x44);
  v[0] = c1;
  v[1] = i128(100000000);
  assert_int_equal(call(f, sac, "mint", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(148403, 25533, 165907, 27260, 623464, 35118, 679292, 43460);
}

/* A call without require_auth, against the trace's budget at the push
 * and at the pop.  (Before the push, the storage map here lacks the
 * nonces the traces' signed entries wrote, which the instance's lookup
 * sees; and the return adds recording mode's emulated authentication of
 * the trackers earlier calls left.) */
static void check_call(uint64_t args_cpu, uint64_t args_mem, uint64_t push_cpu, uint64_t push_mem,
                       uint64_t pop_cpu, uint64_t pop_mem) {
  (void)args_cpu;
  (void)args_mem;
  assert_int_equal(probe_cpu[SCP_SAC_PROBE_POPPING] - probe_cpu[SCP_SAC_PROBE_PUSHED], pop_cpu - push_cpu);
  assert_int_equal(probe_mem[SCP_SAC_PROBE_POPPING] - probe_mem[SCP_SAC_PROBE_PUSHED], pop_mem - push_mem);
}

/* The push-to-pop of a call that fails before require_auth. */
static void check_whole_frame(uint64_t push_cpu, uint64_t push_mem, uint64_t pop_cpu,
                              uint64_t pop_mem) {
  assert_int_equal(probe_cpu[SCP_SAC_PROBE_POPPING] - probe_cpu[SCP_SAC_PROBE_PUSHED], pop_cpu - push_cpu);
  assert_int_equal(probe_mem[SCP_SAC_PROBE_POPPING] - probe_mem[SCP_SAC_PROBE_PUSHED], pop_mem - push_mem);
}

/* test_clawback_on_contract.json, whole: mint(C1) as above; the issuer's
 * flags cleared, mint(C2) (its entry without clawback): push 738494 /
 * 56443, require_auth 755998 / 58170, its return 1214779 / 66400, pop
 * 1272326 / 75030; balance(C1) 1273351 -> 1321977 CPU, 75134 -> 83058
 * bytes (the entry read, its TTL extension) and balance(C2) 1323002 ->
 * 1367468, 83162 -> 91086; clawback(C1, 40_000_000): push 1421084 /
 * 102731, require_auth 1451386 / 105596 (check_clawbackable,
 * check_not_issuer, read_administrator), return 1909181 / 113364, pop
 * 1958324 / 120979 (spend_balance_no_authorization_check, the clawback
 * event); clawback(C2) fails in check_clawbackable with
 * Error(Contract, #10): push 2012206 / 132692, pop 2025796 / 133830; the
 * issuer's clawback flag set again changes nothing: clawback(C1) push
 * 2083139 / 146387, require_auth 2111341 / 149252, return 2570819 /
 * 157206, pop 2620332 / 164889; clawback(C2) push 2677123 / 177516, pop
 * 2690773 / 178654; balance(C1) = 20_000_000, 2691798 -> 2738094,
 * 178758 -> 186818; balance(C2) = 100_000_000, 2739119 -> 2788775,
 * 186922 -> 194982. */
static void test_clawback_on_contract(void **state) {
  fixture *f = *state;
  uint64_t sac = aaaa_contract(f), ret, v[2];
  uint64_t c1 = address(f, 1, 0x55), c2 = address(f, 1, 0x44);
  v[0] = c1;
  v[1] = i128(100000000);
  assert_int_equal(call(f, sac, "mint", v, 2, &ret, NULL, NULL), SCP_OK);
  set_account_flags(f, 0x11, 0);
  v[0] = c2;
  assert_int_equal(call(f, sac, "mint", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(738494, 56443, 755998, 58170, 1214779, 66400, 1272326, 75030);
  assert_int_equal(call(f, sac, "balance", &c1, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, i128(100000000));
  check_call(1273351, 75134, 1289423, 78875, 1321977, 83058);
  assert_int_equal(call(f, sac, "balance", &c2, 1, &ret, NULL, NULL), SCP_OK);
  check_call(1323002, 83162, 1339074, 86903, 1367468, 91086);
  v[0] = c1;
  v[1] = i128(40000000);
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(1421084, 102731, 1451386, 105596, 1909181, 113364, 1958324, 120979);
  v[0] = c2;
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 10));
  check_whole_frame(2012206, 132692, 2025796, 133830);
  set_account_flags(f, 0x11, SCP_ACCT_CLAWBACK_ENABLED);
  v[0] = c1;
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(2083139, 146387, 2111341, 149252, 2570819, 157206, 2620332, 164889);
  v[0] = c2;
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_ERR_HOST);
  check_whole_frame(2677123, 177516, 2690773, 178654);
  assert_int_equal(call(f, sac, "balance", &c1, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, i128(20000000));
  check_call(2691798, 178758, 2708184, 182635, 2738094, 186818);
  assert_int_equal(call(f, sac, "balance", &c2, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, i128(100000000));
  check_call(2739119, 186922, 2755505, 190799, 2788775, 194982);
}

/* test_auth_revocable_on_contract.json: authorized(C) of a contract
 * without a balance entry is !AUTH_REQUIRED: push 110095 / 16925, pop
 * 147168 / 22248; with the issuer's flags cleared, set_authorized(C,
 * false) fails after require_auth with Error(Contract, #2) (push 205631 /
 * 34469, require_auth 220519 / 36012, its return 676703 / 43240, pop
 * 694892 / 46173); with AUTH_REVOCABLE it writes a zero balance
 * {0, false, clawback: false} (push 756230 / 59240, require_auth 771118 /
 * 60783, return 1230836 / 68907, pop 1281984 / 76272); authorized(C) is
 * then false (push 1300340 / 80087, pop 1325725 / 83782); flags cleared
 * again, set_authorized(C, true) rewrites the entry (push 1387230 /
 * 96985, require_auth 1402118 / 98528, return 1862823 / 106838, pop
 * 1913577 / 114427) and authorized(C) is true (push 1931949 / 118310,
 * pop 1957934 / 122005). */
static void test_auth_revocable_on_contract(void **state) {
  fixture *f = *state;
  uint64_t sac = aaaa_contract(f), ret, v[2];
  uint64_t c1 = address(f, 1, 0x55);
  assert_int_equal(call(f, sac, "authorized", &c1, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, SCP_VAL_TRUE);
  check_call(0, 0, 110095, 16925, 147168, 22248);
  set_account_flags(f, 0x11, 0);
  v[0] = c1;
  v[1] = SCP_VAL_FALSE;
  assert_int_equal(call(f, sac, "set_authorized", v, 2, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 2));
  check_sides(205631, 34469, 220519, 36012, 676703, 43240, 694892, 46173);
  set_account_flags(f, 0x11, SCP_ACCT_AUTH_REVOCABLE);
  assert_int_equal(call(f, sac, "set_authorized", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(756230, 59240, 771118, 60783, 1230836, 68907, 1281984, 76272);
  assert_int_equal(call(f, sac, "authorized", &c1, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, SCP_VAL_FALSE);
  check_call(0, 0, 1300340, 80087, 1325725, 83782);
  set_account_flags(f, 0x11, 0);
  v[1] = SCP_VAL_TRUE;
  assert_int_equal(call(f, sac, "set_authorized", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(1387230, 96985, 1402118, 98528, 1862823, 106838, 1913577, 114427);
  assert_int_equal(call(f, sac, "authorized", &c1, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, SCP_VAL_TRUE);
  check_call(0, 0, 1931949, 118310, 1957934, 122005);
}

/* test_clawback_on_account.json: user 0x33 with a trustline (AUTHORIZED |
 * TRUSTLINE_CLAWBACK_ENABLED, no account entry), mint 100_000_000
 * (push 150415 / 26134, require_auth 167919 / 27861, return 626034 /
 * 36159, pop 654750 / 40501), balance (push 672255 / 44290, pop 702109 /
 * 48558); clawback(user, 40_000_000): push 759434 / 61247, require_auth
 * 781540 / 63246 (check_clawbackable: read_asset, the trustline's flags;
 * check_not_issuer, read_administrator), return 1240582 / 71742, pop
 * 1263843 / 75592 (the trustline lowered without the authorization
 * check, the event); balance 60_000_000 (push 1281364 / 79449, pop
 * 1311218 / 83717); clawback(60_000_001) fails after require_auth with
 * Error(Contract, #10): push 1368559 / 96474, require_auth 1390665 /
 * 98473, return 1850763 / 107155, pop 1868372 / 109984; with the
 * trustline's flags cleared clawback(60_000_000) fails in
 * check_clawbackable (#10): push 1928805 / 123449, pop 1945696 / 125160;
 * with TRUSTLINE_CLAWBACK_ENABLED again it takes the rest: push 2003268 /
 * 137779, require_auth 2025374 / 139778, return 2483603 / 147664, pop
 * 2507189 / 151582; balance 0 (push 2524828 / 155507, pop 2554882 /
 * 159775). */
static void test_clawback_on_account(void **state) {
  fixture *f = *state;
  uint64_t sac = aaaa_contract(f), ret, v[2];
  seed_trustline(f, 0x33, SCP_TL_AUTHORIZED | SCP_TL_CLAWBACK_ENABLED);
  uint64_t user = address(f, 0, 0x33);
  v[0] = user;
  v[1] = i128(100000000);
  assert_int_equal(call(f, sac, "mint", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(150415, 26134, 167919, 27861, 626034, 36159, 654750, 40501);
  assert_int_equal(call(f, sac, "balance", &user, 1, &ret, NULL, NULL), SCP_OK);
  check_call(0, 0, 672255, 44290, 702109, 48558);
  v[1] = i128(40000000);
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(759434, 61247, 781540, 63246, 1240582, 71742, 1263843, 75592);
  assert_int_equal(tl_balance(f, 0x33), 60000000);
  assert_int_equal(call(f, sac, "balance", &user, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, i128(60000000));
  check_call(0, 0, 1281364, 79449, 1311218, 83717);
  v[1] = i128(60000001);
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 10));
  check_sides(1368559, 96474, 1390665, 98473, 1850763, 107155, 1868372, 109984);
  set_tl_flags(f, 0x33, 0);
  v[1] = i128(60000000);
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 10));
  check_whole_frame(1928805, 123449, 1945696, 125160);
  set_tl_flags(f, 0x33, SCP_TL_CLAWBACK_ENABLED);
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(2003268, 137779, 2025374, 139778, 2483603, 147664, 2507189, 151582);
  assert_int_equal(call(f, sac, "balance", &user, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, i128(0));
  check_call(0, 0, 2524828, 155507, 2554882, 159775);
  assert_int_equal(tl_flags(f, 0x33), SCP_TL_CLAWBACK_ENABLED);
}

/* The native asset's contract on the network [5; 32] (the SAC tests'
 * ledger), recording mode, ledger 123. */
static uint64_t native_contract(fixture *f) {
  uint8_t seed[32] = { 0 }, b[4] = { 0 };
  assert_int_equal(scp_host_set_base_prng_seed(f->h, seed), SCP_OK);
  memset(f->h->opts.network_id, 5, 32);
  uint64_t arg, addr = 0;
  scp_error err;
  assert_int_equal(scp_host_memobj_new_from_slice(f->h, SCP_TAG_BYTES_OBJ, b, 4, &arg), SCP_OK);
  assert_int_equal(scp_host_call(f->h, fn("create_asset_contract"), &arg, NULL, &addr, &err), SCP_OK);
  f->h->opts.auth_enforcing = false;
  f->h->opts.auth_disable_non_root = true;
  f->h->opts.ledger_sequence = 123;
  return addr;
}

static int64_t native_balance(fixture *f, uint8_t who) {
  scp_sentry *e = account_entry(f, who);
  assert_non_null(e);
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | e->val[36 + i];
  return (int64_t)v;
}

/* test_native_self_transfer.json: the user's account (100_000_000
 * stroops, no sub-entries: a minimum of 2 base reserves, 10_000_000),
 * transfer(user, user, 90_000_000): from the push (126359 CPU, 21155
 * bytes) to require_auth (127161) the dispatcher; from its return
 * (589170, 30507) to the pop (625353, 35392): the TTL bump,
 * is_authorized (read_asset: native), spend (read_asset, the account's
 * key, read, clone, min/max, write), receive (the same), the transfer
 * event.  Then balance 100_000_000, and transfer(user, user,
 * 90_000_001) spends below the minimum: Error(Contract, #10). */
static void test_native_self_transfer(void **state) {
  fixture *f = *state;
  uint64_t sac = native_contract(f), ret, v[3];
  seed_account(f, 0x33, 100000000, 0, 0, 100);
  uint64_t user = address(f, 0, 0x33);
  v[0] = user;
  v[1] = user;
  v[2] = i128(90000000);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_OK);
  check_sides(126359, 21155, 127161, 21155, 589170, 30507, 625353, 35392);
  assert_int_equal(native_balance(f, 0x33), 100000000);
  v[2] = i128(90000001);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 10));
  /* push 716245 / 53680, require_auth 717047, return 1180443 / 63218,
   * pop 1201667 / 65938 */
  check_sides(716245, 53680, 717047, 53680, 1180443, 63218, 1201667, 65938);
  assert_int_equal(native_balance(f, 0x33), 100000000);
}

/* cap_73 test_xlm_transfer_creates_account.json: the source (0x33,
 * 100_000_000) pays 10_000_000 -- two base reserves -- to an account
 * that does not exist: from the push (123498, 20309) to require_auth
 * (124300) the dispatcher; from its return (583340, 28815) to the pop
 * (625067, 34392): the source's balance lowered, the destination's
 * missing entry (try_get), the new AccountEntry (seqNum 123 << 32) put.
 * test_xlm_transfer_fails_below_minimum.json: 9_999_999 fails with
 * Error(Contract, #14) after the same spend: return 583340 / 28815, pop
 * 614554 / 33107. */
static void xlm_transfer_new_account(void **state, int64_t amount) {
  fixture *f = *state;
  uint64_t sac = native_contract(f), ret, v[3];
  seed_account(f, 0x33, 100000000, 0, 0, 100);
  v[0] = address(f, 0, 0x33);
  v[1] = address(f, 0, 0x22);
  v[2] = i128(amount);
  int rc = call(f, sac, "transfer", v, 3, &ret, NULL, NULL);
  if (amount >= 10000000) {
    assert_int_equal(rc, SCP_OK);
    check_sides(123498, 20309, 124300, 20309, 583340, 28815, 625067, 34392);
    assert_int_equal(native_balance(f, 0x33), 100000000 - amount);
    assert_int_equal(native_balance(f, 0x22), amount);
    scp_sentry *e = account_entry(f, 0x22);
    assert_int_equal(e->vallen, 80);
    assert_int_equal(scp_be32(e->val + 44), 123);   /* seqNum's high word */
    assert_int_equal(e->val[68], 1);
  } else {
    assert_int_equal(rc, SCP_ERR_HOST);
    assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 14));
    check_sides(123498, 20309, 124300, 20309, 583340, 28815, 614554, 33107);
    assert_null(account_entry(f, 0x22));
    assert_int_equal(native_balance(f, 0x33), 100000000);
  }
}

/* test_stellar_asset_contract_classic_balance_boundaries_with_sponsorships
 * _and_liabilities.json: the user (0x33) holds 1_000_000_000 with 5
 * sub-entries, liabilities (buying 300_000_000, selling 500_000_000) and
 * sponsorships (3 sponsored, 6 sponsoring) -- AccountEntry ext V1 -> V2:
 * a minimum of (2 + 5 + 6 - 3) base reserves + 500_000_000 =
 * 550_000_000.  transfer(user, new, 450_000_001) to an account of
 * 10_000_000 fails with Error(Contract, #10): return 586879 / 29612, pop
 * 609612 / 32636; 450_000_000 passes: push 667633 / 45684, require_auth
 * 668435, return 1131551 / 55288, pop 1172619 / 60601. */
static void test_native_boundaries_with_ext(void **state) {
  fixture *f = *state;
  uint64_t sac = native_contract(f), ret, v[3];
  uint8_t e[120 + 4 + 16 + 4 + 16 + 4] = { 0 };
  memset(e + 4, 0x33, 32);
  be64_put(e + 36, 1000000000);
  be32_put(e + 52, 5);
  e[68] = 1;
  be32_put(e + 72, 1);
  memset(e + 80, 0x33, 32);
  be32_put(e + 112, 100);
  be32_put(e + 116, 1);                  /* AccountEntryExt V1 */
  be64_put(e + 120, 300000000);          /* buying */
  be64_put(e + 128, 500000000);          /* selling */
  be32_put(e + 136, 2);                  /* V1 ext: V2 */
  be32_put(e + 140, 3);                  /* numSponsored */
  be32_put(e + 144, 6);                  /* numSponsoring */
  be32_put(e + 148, 0);                  /* signerSponsoringIDs */
  be32_put(e + 152, 0);                  /* V2 ext V0 */
  scp_lkey k = { .type = SCP_LK_ACCOUNT };
  memset(k.id, 0x33, 32);
  assert_int_equal(scp_storage_seed(f->h, &k, e, 156, 0, true), SCP_OK);
  seed_account(f, 0x22, 10000000, 0, 0, 100);
  v[0] = address(f, 0, 0x33);
  v[1] = address(f, 0, 0x22);
  v[2] = i128(450000001);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 10));
  check_sides(126252, 20904, 127054, 20904, 586879, 29612, 609612, 32636);
  v[2] = i128(450000000);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_OK);
  check_sides(667633, 45684, 668435, 45684, 1131551, 55288, 1172619, 60601);
  assert_int_equal(native_balance(f, 0x33), 550000000);
  assert_int_equal(native_balance(f, 0x22), 460000000);
}

static void test_xlm_transfer_creates_account(void **state) {
  xlm_transfer_new_account(state, 10000000);
}

static void test_xlm_transfer_fails_below_minimum(void **state) {
  xlm_transfer_new_account(state, 9999999);
}

/* cap_73 test_trust_creates_trustline.json: user 0x33 with 15_000_000
 * (two reserves plus one for the trustline); trust(user): from the push
 * (149656, 25671) to require_auth (181227, 30563): the TTL bump,
 * read_asset, the trustline's missing entry; from its return (638655,
 * 38387) to the pop (648756, 40488): the issuer's account (flags), the
 * user's account (cloned, sub-entries, reserve), the new trustline
 * {0, i64::MAX, AUTHORIZED | CLAWBACK_ENABLED} and the account with one
 * more sub-entry written.  Then mint(user, 50_000_000) (push 709129 /
 * 53673, require_auth 726633 / 55400, return 1185775 / 64070, pop
 * 1213655 / 68260), balance (push 1231194 / 72185, pop 1261048 /
 * 76453); user_2 (0x22, 20_000_000) trusts (push 1320231 / 89541,
 * require_auth 1352487 / 94585, return 1811534 / 103153, pop 1823418 /
 * 105898); transfer(user, user_2, 10_000_000): push 1885298 / 120347,
 * require_auth 1886100, return 2350926 / 131001, pop 2411804 / 138870;
 * the balances (push 2429691 / 143067, pop 2460193 / 147335; push
 * 2478080 / 151532, pop 2508847 / 155800). */
static void test_trust_creates_trustline(void **state) {
  fixture *f = *state;
  seed_account(f, 0x33, 15000000, 0, 0, 100);
  uint64_t sac = aaaa_contract(f), ret, v[3];
  uint64_t user = address(f, 0, 0x33);
  assert_int_equal(call(f, sac, "trust", &user, 1, &ret, NULL, NULL), SCP_OK);
  check_sides(149656, 25671, 181227, 30563, 638655, 38387, 648756, 40488);
  assert_int_equal(tl_flags(f, 0x33), SCP_TL_AUTHORIZED | SCP_TL_CLAWBACK_ENABLED);
  assert_int_equal(tl_balance(f, 0x33), 0);
  assert_int_equal(scp_be32(account_entry(f, 0x33)->val + 52), 1);
  v[0] = user;
  v[1] = i128(50000000);
  assert_int_equal(call(f, sac, "mint", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(709129, 53673, 726633, 55400, 1185775, 64070, 1213655, 68260);
  assert_int_equal(call(f, sac, "balance", &user, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, i128(50000000));
  check_call(0, 0, 1231194, 72185, 1261048, 76453);
  seed_account(f, 0x22, 20000000, 0, 0, 100);
  uint64_t user2 = address(f, 0, 0x22);
  assert_int_equal(call(f, sac, "trust", &user2, 1, &ret, NULL, NULL), SCP_OK);
  check_sides(1320231, 89541, 1352487, 94585, 1811534, 103153, 1823418, 105898);
  v[0] = user;
  v[1] = user2;
  v[2] = i128(10000000);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_OK);
  check_sides(1885298, 120347, 1886100, 120347, 2350926, 131001, 2411804, 138870);
  assert_int_equal(call(f, sac, "balance", &user, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, i128(40000000));
  check_call(0, 0, 2429691, 143067, 2460193, 147335);
  assert_int_equal(call(f, sac, "balance", &user2, 1, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(ret, i128(10000000));
  check_call(0, 0, 2478080, 151532, 2508847, 155800);
}

/* cap_73 test_trust_fails_low_reserve.json (14_999_999: Error(Contract,
 * #14)) and test_trust_fails_too_many_subentries.json (1000 sub-entries:
 * #15): the same push to require_auth as a created trustline (149656 /
 * 25671 -> 181227 / 30563), then from its return (638655 / 38387) to the
 * pop (643457 / 38931): both accounts read and cloned, the check fails
 * before any write.  test_trust_auth_required_issuer.json: with the
 * issuer's AUTH_REQUIRED the trustline is created unauthorized, at the
 * created trustline's cost (648756 / 40488). */
static void trust_case(void **state, int64_t balance, uint32_t num_sub, uint32_t issuer_flags,
                       int want) {
  fixture *f = *state;
  seed_account(f, 0x33, balance, num_sub, 0, 100);
  uint64_t sac = aaaa_contract(f), ret;
  if (issuer_flags) set_account_flags(f, 0x11, issuer_flags);
  uint64_t user = address(f, 0, 0x33);
  if (!want) {
    assert_int_equal(call(f, sac, "trust", &user, 1, &ret, NULL, NULL), SCP_OK);
    check_sides(149656, 25671, 181227, 30563, 638655, 38387, 648756, 40488);
    assert_int_equal(tl_flags(f, 0x33), SCP_TL_CLAWBACK_ENABLED);
    return;
  }
  assert_int_equal(call(f, sac, "trust", &user, 1, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, (unsigned)want));
  check_sides(149656, 25671, 181227, 30563, 638655, 38387, 643457, 38931);
  assert_null(trustline(f, 0x33));
  assert_int_equal(scp_be32(account_entry(f, 0x33)->val + 52), num_sub);
}

static void test_trust_fails_low_reserve(void **state) {
  trust_case(state, 14999999, 0, 0, 14);
}

static void test_trust_fails_too_many_subentries(void **state) {
  trust_case(state, 100000000000, 1000, 0, 15);
}

static void test_trust_auth_required_issuer(void **state) {
  trust_case(state, 20000000, 0,
             SCP_ACCT_AUTH_REQUIRED | SCP_ACCT_AUTH_REVOCABLE | SCP_ACCT_CLAWBACK_ENABLED, 0);
}

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

/* A trustline of who with TrustLineEntryExt V1 (liabilities). */
static void seed_trustline_v1(fixture *f, uint8_t who, int64_t balance, int64_t limit,
                              uint32_t flags, int64_t buying, int64_t selling) {
  uint8_t tl[124] = { 0 }, asset[44] = { 0 };
  asset[3] = 1;
  memcpy(asset + 4, "aaaa", 4);
  memset(asset + 12, 0x11, 32);
  scp_lkey tk = { .type = SCP_LK_TRUSTLINE, .key = asset, .keylen = 44 };
  memset(tk.id, who, 32);
  memset(tl + 4, who, 32);
  memcpy(tl + 36, asset, 44);
  be64_put(tl + 80, balance);
  be64_put(tl + 88, limit);
  be32_put(tl + 96, flags);
  be32_put(tl + 100, 1);
  be64_put(tl + 104, buying);
  be64_put(tl + 112, selling);
  assert_int_equal(scp_storage_seed(f->h, &tk, tl, sizeof tl, 0, true), SCP_OK);
}

/* test_trustline_auth.json, the issuer as admin (set_admin to itself,
 * then its account rewritten with no flags), user 0x33 with a trustline
 * (limit 10_000, AUTHORIZED, ext V1 without liabilities): mint(user,
 * 1000) (push 723907 / 56998, require_auth 741411 / 58725, return
 * 1200937 / 67395, pop 1228865 / 71585); transfer(user, issuer, 1), a
 * burn (push 1338058 / 94023, require_auth 1338860, return 1802781 /
 * 104119, pop 1857228 / 110392); set_authorized(user, false) without
 * AUTH_REVOCABLE: Error(Contract, #2) (push 2012854 / 139927,
 * require_auth 2027742 / 141470, return 2490401 / 150542, pop 2509478 /
 * 153475); with it the trustline's AUTHORIZED flag becomes
 * AUTHORIZED_TO_MAINTAIN_LIABILITIES (push 2568850 / 166438, require_auth
 * 2583738 / 167981, return 3043654 / 176257, pop 3074382 / 180797);
 * transfer and mint then fail with #11 (transfer: return 3596816 /
 * 204004, pop 3626556 / 208272; mint: push 3681148 / 220375,
 * require_auth 3698652 / 222102, return 4157606 / 230584, pop 4175849 /
 * 233413); set_authorized(user, true) (push 4235605 / 246582,
 * require_auth 4250493 / 248125, return 4714448 / 257533, pop 4739842 /
 * 261765).  approve, transfer_from and mint leave 500; clawback(user, 10) without the trustline's clawback flag is
 * #10 before require_auth (push 6678067 / 395430, pop 6694994 / 397141);
 * the trustline rewritten (500, CLAWBACK_ENABLED only, selling
 * liabilities 10), clawback(user, 10) passes (push 6755959 / 411558,
 * require_auth 6778101 / 413557, return 7244267 / 423877, pop 7269383 /
 * 428339): no authorization needed, 490 left. */
static void test_trustline_auth(void **state) {
  fixture *f = *state;
  uint64_t sac = aaaa_contract(f), ret, v[3];
  uint64_t issuer = address(f, 0, 0x11), user = address(f, 0, 0x33);
  assert_int_equal(call(f, sac, "set_admin", &issuer, 1, &ret, NULL, NULL), SCP_OK);
  set_account_flags(f, 0x11, 0);
  seed_account(f, 0x33, 10000000, 1, 0, 100);
  seed_trustline_v1(f, 0x33, 0, 10000, SCP_TL_AUTHORIZED, 0, 0);
  v[0] = user;
  v[1] = i128(1000);
  assert_int_equal(call(f, sac, "mint", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(723907, 56998, 741411, 58725, 1200937, 67395, 1228865, 71585);
  v[1] = issuer;
  v[2] = i128(1);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_OK);
  check_sides(1338058, 94023, 1338860, 94023, 1802781, 104119, 1857228, 110392);
  assert_int_equal(tl_balance(f, 0x33), 999);
  v[1] = SCP_VAL_FALSE;
  assert_int_equal(call(f, sac, "set_authorized", v, 2, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 2));
  check_sides(2012854, 139927, 2027742, 141470, 2490401, 150542, 2509478, 153475);
  set_account_flags(f, 0x11, SCP_ACCT_AUTH_REVOCABLE);
  assert_int_equal(call(f, sac, "set_authorized", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(2568850, 166438, 2583738, 167981, 3043654, 176257, 3074382, 180797);
  assert_int_equal(tl_flags(f, 0x33), SCP_TL_AUTHORIZED_TO_MAINTAIN_LIABILITIES);
  v[1] = issuer;
  v[2] = i128(1);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 11));
  check_sides(3133635, 194332, 3134437, 194332, 3596816, 204004, 3626556, 208272);
  v[1] = i128(1000);
  assert_int_equal(call(f, sac, "mint", v, 2, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 11));
  check_sides(3681148, 220375, 3698652, 222102, 4157606, 230584, 4175849, 233413);
  v[1] = SCP_VAL_TRUE;
  assert_int_equal(call(f, sac, "set_authorized", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(4235605, 246582, 4250493, 248125, 4714448, 257533, 4739842, 261765);
  assert_int_equal(tl_flags(f, 0x33), SCP_TL_AUTHORIZED);
  uint64_t w[4] = { user, issuer, i128(500), scp_val_u32(200) };
  assert_int_equal(call(f, sac, "approve", w, 4, &ret, NULL, NULL), SCP_OK);
  w[0] = issuer;
  w[1] = user;
  w[2] = issuer;
  w[3] = i128(500);
  assert_int_equal(call(f, sac, "transfer_from", w, 4, &ret, NULL, NULL), SCP_OK);
  v[1] = i128(1);
  assert_int_equal(call(f, sac, "mint", v, 2, &ret, NULL, NULL), SCP_OK);
  assert_int_equal(tl_balance(f, 0x33), 500);
  scp_sentry *e;
  v[1] = i128(10);
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 10));
  check_whole_frame(6678067, 395430, 6694994, 397141);
  e = trustline(f, 0x33);
  be32_put(e->val + 96, SCP_TL_CLAWBACK_ENABLED);
  be64_put(e->val + 112, 10);
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(6755959, 411558, 6778101, 413557, 7244267, 423877, 7269383, 428339);
  assert_int_equal(tl_balance(f, 0x33), 490);
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

/* test_zero_amounts.json: users 0x33 and 0x22 with accounts and
 * trustlines, a contract address C without a balance.  Zero amounts move
 * nothing but take the same paths: transfer(user, user_2, 0) (push 161916
 * / 29143, require_auth 162718, return 622972 / 38393, pop 683731 /
 * 46346); burn(user, 0) (push 740886 / 59227, require_auth 759703 /
 * 60954, return 1220304 / 69996, pop 1248531 / 74322); burn_from(user,
 * user_2, 0) (push 1310835 / 88957, require_auth 1329662 / 90684, return
 * 1796062 / 101406, pop 1834718 / 107862); burn_from(user, C, 0): a
 * contract without a balance spends 0 (push 1896424 / 122299,
 * require_auth 1915251 / 124026, return 2381455 / 134866, pop 2432861 /
 * 142509); clawback(user_2, 0) (push 2487757 / 154964, require_auth
 * 2509893 / 156963, return 2971087 / 166287, pop 2996196 / 170749);
 * clawback(C, 0) is #10, no balance (push 3050228 / 182938, pop 3056631 /
 * 183426); set_authorized(C, true) creates {0, true, clawback} (push
 * 3112746 / 195823, require_auth 3127634 / 197366, return 3589746 /
 * 206640, pop 3644725 / 215375); then clawback(C, 0) passes (push
 * 3701884 / 228478, require_auth 3731746 / 231343, return 4197026 /
 * 241631, pop 4252893 / 249858). */
static void test_zero_amounts(void **state) {
  fixture *f = *state;
  uint64_t sac = aaaa_contract(f), ret, v[3];
  seed_account(f, 0x33, 0, 0, 0, 1);
  seed_account(f, 0x22, 0, 0, 0, 1);
  seed_trustline(f, 0x33, SCP_TL_AUTHORIZED | SCP_TL_CLAWBACK_ENABLED);
  seed_trustline(f, 0x22, SCP_TL_AUTHORIZED | SCP_TL_CLAWBACK_ENABLED);
  uint64_t user = address(f, 0, 0x33), user2 = address(f, 0, 0x22), c = address(f, 1, 0x55);
  v[0] = user;
  v[1] = user2;
  v[2] = i128(0);
  assert_int_equal(call(f, sac, "transfer", v, 3, &ret, NULL, NULL), SCP_OK);
  check_sides(161916, 29143, 162718, 29143, 622972, 38393, 683731, 46346);
  v[1] = i128(0);
  assert_int_equal(call(f, sac, "burn", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(740886, 59227, 759703, 60954, 1220304, 69996, 1248531, 74322);
  v[1] = user2;
  v[2] = i128(0);
  assert_int_equal(call(f, sac, "burn_from", v, 3, &ret, NULL, NULL), SCP_OK);
  check_sides(1310835, 88957, 1329662, 90684, 1796062, 101406, 1834718, 107862);
  v[1] = c;
  assert_int_equal(call(f, sac, "burn_from", v, 3, &ret, NULL, NULL), SCP_OK);
  check_sides(1896424, 122299, 1915251, 124026, 2381455, 134866, 2432861, 142509);
  v[0] = user2;
  v[1] = i128(0);
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(2487757, 154964, 2509893, 156963, 2971087, 166287, 2996196, 170749);
  v[0] = c;
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_CONTRACT, 10));
  check_whole_frame(3050228, 182938, 3056631, 183426);
  v[1] = SCP_VAL_TRUE;
  assert_int_equal(call(f, sac, "set_authorized", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(3112746, 195823, 3127634, 197366, 3589746, 206640, 3644725, 215375);
  v[1] = i128(0);
  assert_int_equal(call(f, sac, "clawback", v, 2, &ret, NULL, NULL), SCP_OK);
  check_sides(3701884, 228478, 3731746, 231343, 4197026, 241631, 4252893, 249858);
}

/* test_greater_than_i64_balances.json: a Wasm contract registered (its
 * code and instance entries; its id sorts after the asset contract's),
 * then mint(C, i64::MAX) to it three times -- amounts and balance entries
 * beyond i64, i128 objects (obj_to_i128_lo64 / hi64 to read,
 * obj_from_i128_pieces to write): push 3311457 / 3890589, require_auth
 * 3329201 / 3892316, return 3788502 / 3900732, pop 3846491 / 3910200;
 * balance (push 3863854 / 3914113, pop 3894026 / 3918456) = i64::MAX;
 * the second mint (return 4430900 / 3941678, pop 4491583 / 3950819) and
 * balance (push 4508994 / 3954800, pop 4539332 / 3959143) = 2 i64::MAX;
 * the third (return 5070292 / 3980927, pop 5136947 / 3990136; balance
 * push 5154374 / 3994185, pop 5187112 / 3998528). */
static void test_greater_than_i64_balances(void **state) {
  fixture *f = *state;
  uint64_t sac = aaaa_contract(f), ret, v[2];
  seed_account(f, 0x33, 0, 0, 0, 1);
  static const uint8_t lkci[4] = { 0, 0, 0, 20 }, code[8] = { 0 };
  uint8_t kb[4];
  memcpy(kb, lkci, 4);
  scp_lkey ck = { .type = SCP_LK_CONTRACT_CODE };
  memset(ck.id, 0x77, 32);
  assert_int_equal(scp_storage_seed(f->h, &ck, code, sizeof code, 123 + 4095, true), SCP_OK);
  scp_lkey ik = { .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_PERSISTENT, .key = kb, .keylen = 4 };
  memset(ik.id, 0xf0, 32);
  assert_int_equal(scp_storage_seed(f->h, &ik, code, sizeof code, 123 + 4095, true), SCP_OK);
  uint64_t c = address(f, 1, 0xf0);
  static const uint64_t auth[3][4] = { { 3788502, 3900732, 3846491, 3910200 },
                                       { 4430900, 3941678, 4491583, 3950819 },
                                       { 5070292, 3980927, 5136947, 3990136 } };
  static const uint64_t bal[3][4] = { { 3863854, 3914113, 3894026, 3918456 },
                                      { 4508994, 3954800, 4539332, 3959143 },
                                      { 5154374, 3994185, 5187112, 3998528 } };
  for (int n = 0; n < 3; n++) {
    v[0] = c;
    assert_int_equal(scp_sac_i128_pieces_val(f->h, 0, (uint64_t)INT64_MAX, &v[1]), SCP_OK);
    assert_int_equal(call(f, sac, "mint", v, 2, &ret, NULL, NULL), SCP_OK);
    if (n == 0) {
      assert_int_equal(probe_cpu[SCP_SAC_PROBE_AUTH] - probe_cpu[SCP_SAC_PROBE_PUSHED], 3329201 - 3311457);
      assert_int_equal(probe_mem[SCP_SAC_PROBE_AUTH] - probe_mem[SCP_SAC_PROBE_PUSHED], 3892316 - 3890589);
    }
    assert_int_equal(probe_cpu[SCP_SAC_PROBE_POPPING] - probe_cpu[SCP_SAC_PROBE_AUTHED], auth[n][2] - auth[n][0]);
    assert_int_equal(probe_mem[SCP_SAC_PROBE_POPPING] - probe_mem[SCP_SAC_PROBE_AUTHED], auth[n][3] - auth[n][1]);
    assert_int_equal(call(f, sac, "balance", &c, 1, &ret, NULL, NULL), SCP_OK);
    check_call(0, 0, bal[n][0], bal[n][1], bal[n][2], bal[n][3]);
    assert_int_equal(scp_val_tag_of(ret), SCP_TAG_I128_OBJ);
    int64_t hi;
    uint64_t lo;
    assert_int_equal(scp_sac_val_i128(f->h, ret, &hi, &lo), SCP_OK);
    __int128 want = (__int128)INT64_MAX * (n + 1);
    assert_true(hi == (int64_t)(want >> 64) && lo == (uint64_t)want);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_mint_to_contract, setup, teardown),
    cmocka_unit_test_setup_teardown(test_clawback_on_contract, setup, teardown),
    cmocka_unit_test_setup_teardown(test_auth_revocable_on_contract, setup, teardown),
    cmocka_unit_test_setup_teardown(test_clawback_on_account, setup, teardown),
    cmocka_unit_test_setup_teardown(test_native_self_transfer, setup, teardown),
    cmocka_unit_test_setup_teardown(test_xlm_transfer_creates_account, setup, teardown),
    cmocka_unit_test_setup_teardown(test_xlm_transfer_fails_below_minimum, setup, teardown),
    cmocka_unit_test_setup_teardown(test_native_boundaries_with_ext, setup, teardown),
    cmocka_unit_test_setup_teardown(test_trust_creates_trustline, setup, teardown),
    cmocka_unit_test_setup_teardown(test_trust_fails_low_reserve, setup, teardown),
    cmocka_unit_test_setup_teardown(test_trust_fails_too_many_subentries, setup, teardown),
    cmocka_unit_test_setup_teardown(test_trust_auth_required_issuer, setup, teardown),
    cmocka_unit_test_setup_teardown(test_transfer_muxed, setup, teardown),
    cmocka_unit_test_setup_teardown(test_trustline_auth, setup, teardown),
    cmocka_unit_test_setup_teardown(test_zero_amounts, setup, teardown),
    cmocka_unit_test_setup_teardown(test_greater_than_i64_balances, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
