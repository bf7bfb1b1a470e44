/*
 * test_sac.c — the asset contract's creation side (host_sac.c) and the
 * native Stellar Asset Contract's init_asset (sac_*.c): Asset XDR
 * decoding, the asset contract id, and the exact charges of
 * get_asset_contract_id and of create_asset_contract with init_asset.
 *
 * Numbers from the reference's traces (host set up as the replay driver
 * does: the budget starts at cpu 14285, mem 0; network id all zero):
 *  - test__lifecycle__cap_68_executable_getter__get_stellar_asset_contract
 *    _executable.json: bytes_new_from_slice(4) (the native Asset) ends at
 *    cpu 15248 mem 100; create_asset_contract reaches init_asset's
 *    Symbol (step 6) at cpu 30640 mem 2364; the SAC's id begins 7be74139.
 *  - test__stellar_asset_contract__test_asset4_init.json: bytes(44) ends
 *    at cpu 15258 mem 140; step 6 at cpu 35545 mem 4216.
 * get_asset_contract_id (no trace of its own) is the same components
 * without the preimage clone, plus the Address object: worked out below.
 * The token functions with signed authorization (transfer, burn,
 * approve, set_admin, transfer_from, ...) are checked whole, call by call,
 * in test_sac_whole.c with the traces' own keys and entries.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "profile/scp_prof.h"
#include "soroban/core/host_private.h"
#include "soroban/sac/sac_private.h"
#include "soroban/sac/host_sac.h"
#include "util/scp_util.h"
#include "build_dir.h"
#include "host_fixture.h"

static const uint8_t native[4] = { 0 };

/* AlphaNum4 "USD\0" issued by key 0x11..: 44 bytes */
static void asset4(uint8_t out[44]) {
  memset(out, 0, 44);
  out[3] = 1;
  memcpy(out + 4, "USD", 3);
  memset(out + 12, 0x11, 32);
}

static uint64_t bytes(fixture *f, const uint8_t *p, uint32_t n) {
  uint64_t v;
  assert_int_equal(scp_host_memobj_new_from_slice(f->h, SCP_TAG_BYTES_OBJ, p, n, &v), SCP_OK);
  return v;
}

static void test_decode(void **state) {
  (void)state;
  scp_sac_asset a;
  uint8_t b[44], c[60];
  assert_int_equal(scp_sac_asset_decode(native, 4, &a), 0);
  assert_int_equal(a.type, SCP_SAC_NATIVE);
  asset4(b);
  assert_int_equal(scp_sac_asset_decode(b, 44, &a), 0);
  assert_int_equal(a.type, SCP_SAC_ALPHANUM4);
  assert_memory_equal(a.code, "USD\0", 4);
  assert_int_equal(a.issuer[31], 0x11);
  /* ends early: LengthLimitExceeded; trailing bytes: Invalid */
  assert_int_equal(scp_sac_asset_decode(b, 43, &a), 1);
  assert_int_equal(scp_sac_asset_decode(native, 3, &a), 1);
  memcpy(c, b, 44);
  c[44] = 0;
  assert_int_equal(scp_sac_asset_decode(c, 45, &a), 2);
  uint8_t zeros[44] = { 0 };
  assert_int_equal(scp_sac_asset_decode(zeros, 44, &a), 2);
  c[3] = 3;
  assert_int_equal(scp_sac_asset_decode(c, 44, &a), 2);
  c[3] = 1;
  c[11] = 1;   /* key type other than ed25519 */
  assert_int_equal(scp_sac_asset_decode(c, 44, &a), 2);
  /* AlphaNum12 is 4 + 12 + 4 + 32 bytes */
  memset(c, 0, sizeof c);
  c[3] = 2;
  assert_int_equal(scp_sac_asset_decode(c, 52, &a), 0);
  assert_int_equal(a.type, SCP_SAC_ALPHANUM12);
  uint8_t img[52];
  uint32_t len[4];
  unsigned n;
  assert_int_equal(scp_sac_asset_pieces(&a, img, len, &n), 52);
  assert_int_equal(n, 4);
  assert_int_equal(len[1], 12);
  assert_memory_equal(img, c, 52);
}

/* The native asset's contract id on the all-zero network: the trace's
 * SAC frame is SAC:7be74139. */
static void test_native_id(void **state) {
  (void)state;
  scp_sac_asset a;
  uint8_t nid[32] = { 0 }, id[32];
  assert_int_equal(scp_sac_asset_decode(native, 4, &a), 0);
  scp_sac_contract_id(nid, &a, id);
  static const uint8_t want[4] = { 0x7b, 0xe7, 0x41, 0x39 };
  assert_memory_equal(id, want, 4);
}

/* An Asset's XDR: native, or the code (4 or 12 bytes, zero-padded) issued
 * by key 0x11.. */
static uint32_t asset_xdr(const char *code, size_t clen, uint8_t out[52]) {
  memset(out, 0, 52);
  if (!clen) return 4;
  uint32_t w = clen > 4 ? 12 : 4;
  out[3] = w == 4 ? 1 : 2;
  memcpy(out + 4, code, clen);
  memset(out + 4 + w + 4, 0x11, 32);
  return 4 + w + 4 + 32;
}

static size_t live_entries(fixture *f) {
  scp_sentry *snap;
  size_t ns, live = 0;
  assert_int_equal(scp_storage_snapshot(f->h, &snap, &ns), SCP_OK);
  for (size_t i = 0; i < ns; i++) live += snap[i].present;
  scp_storage_snapshot_free(snap, ns);
  return live;
}

/* create_asset_contract runs init_asset in the native SAC and returns the
 * contract's Address: the budget after the call, the object count, the
 * instance entry written back with its storage map (persist_instance_
 * storage at the SAC frame's pop). */
static void create_ok(fixture *f, const char *code, size_t clen, uint64_t cpu, uint64_t mem,
                      size_t objs) {
  uint8_t b[52];
  uint32_t n = asset_xdr(code, clen, b);
  uint64_t arg = bytes(f, b, n), ret = 0;
  scp_error err;
  int rc = scp_host_call(f->h, fn("create_asset_contract"), &arg, NULL, &ret, &err);
  assert_int_equal(rc, SCP_OK);
  assert_int_equal(f->b.cpu, cpu);
  assert_int_equal(f->b.mem, mem);
  assert_int_equal(f->b.mem_peak, mem);
  assert_int_equal(scp_host_object_count(f->h), objs);
  const scp_hobj *o = scp_host_obj(f->h, ret);
  assert_non_null(o);
  assert_int_equal(o->tag, SCP_TAG_ADDRESS_OBJ);
  assert_int_equal(o->u.bytes[0], 1);
  assert_int_equal(live_entries(f), 1);
  /* the instance entry: ContractInstance, StellarAsset, Some(map of 2 or 3) */
  scp_sentry *snap;
  size_t ns;
  assert_int_equal(scp_storage_snapshot(f->h, &snap, &ns), SCP_OK);
  assert_int_equal(ns, 1);
  static const uint8_t head[12] = { 0, 0, 0, 19, 0, 0, 0, 1, 0, 0, 0, 1 };
  assert_true(snap[0].vallen > 16);
  assert_memory_equal(snap[0].val, head, 12);
  assert_int_equal(snap[0].val[15], clen ? 3 : 2);
  scp_storage_snapshot_free(snap, ns);
}

/* test__lifecycle__cap_68_executable_getter__get_stellar_asset_contract_
 * executable.json step 48: ret create_asset_contract at cpu 65804 mem 7512,
 * 13 objects. */
static void test_create_native(void **state) {
  fixture *f = *state;
  create_ok(f, "", 0, 65804, 7512, 13);
  /* and the SAC is the one of the trace: SAC:7be74139 */
  const scp_hobj *o = scp_host_obj(f->h, scp_val_object(SCP_TAG_ADDRESS_OBJ, 25));
  assert_non_null(o);
  static const uint8_t want[4] = { 0x7b, 0xe7, 0x41, 0x39 };
  assert_memory_equal(o->u.bytes + 1, want, 4);
}

/* test__stellar_asset_contract__test_asset4_init.json step 86 ("zA9Z"):
 * cpu 88505 mem 12335, 20 objects; step 85 (the SAC frame's pop, after
 * the instance storage is persisted) is cpu 88003. */
static void test_create_asset4(void **state) {
  create_ok(*state, "zA9Z", 4, 88505, 12335, 20);
}

/* test_asset4_trailing_zero_init.json ("Az\0\0"): cpu 88505 mem 12327. */
static void test_create_asset4_trailing_zero(void **state) {
  create_ok(*state, "Az", 2, 88505, 12327, 20);
}

/* test_asset12_init.json ("123def456XYZ"): cpu 91845 mem 12675, 21 objects. */
static void test_create_asset12(void **state) {
  create_ok(*state, "123def456XYZ", 12, 91845, 12675, 21);
}

/* test_asset12_trailing_zero_init.json ("789Az" + 7 NULs): cpu 91837
 * mem 12647. */
static void test_create_asset12_trailing_zero(void **state) {
  create_ok(*state, "789Az", 5, 91837, 12647, 21);
}

/* call(asset, fn, []) as the reference's test does it (an Env call):
 * the budget delta from after the args' vec_new to the ret. */
static uint64_t call0(fixture *f, uint64_t addr, const char *name, uint64_t *ret,
                      uint64_t *dmem) {
  uint64_t args, sym;
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("vec_new"), &args, NULL, &args, &err), SCP_OK);
  uint64_t cpu = f->b.cpu, mem = f->b.mem;
  assert_int_equal(scp_host_symbol_val(f->h, name, &sym), SCP_OK);
  uint64_t a[3] = { addr, sym, args };
  int rc = scp_host_call(f->h, fn("call"), a, NULL, ret, &err);
  if (rc != SCP_OK) print_message("call %s: %d %s\n", name, rc, err.msg);
  assert_int_equal(rc, SCP_OK);
  *dmem = f->b.mem - mem;
  return f->b.cpu - cpu;
}

/* test__stellar_asset_contract__test_asset4_init.json steps 89-184, after
 * create_asset_contract("zA9Z"): symbol() 100049 -> 128719 (mem 14489 ->
 * 19313), decimals() 129443 -> 145914 (19393 -> 22778), name() 146416 ->
 * 175086 (22858 -> 27682).  Each call reads the instance (its clone with
 * the storage map), pushes the SAC frame, and the first instance access
 * converts the persisted map back (from_instance_xdr, 11 objects). */
static void test_metadata_calls(void **state) {
  fixture *f = *state;
  create_ok(f, "zA9Z", 4, 88505, 12335, 20);
  uint64_t addr = scp_val_object(SCP_TAG_ADDRESS_OBJ, 39), ret, dmem;
  assert_int_equal(call0(f, addr, "symbol", &ret, &dmem), 128719 - 100049);
  assert_int_equal(dmem, 19313 - 14489);
  const scp_hobj *o = scp_host_obj(f->h, ret);
  assert_non_null(o);
  assert_int_equal(o->tag, SCP_TAG_STRING_OBJ);
  assert_int_equal(o->len, 4);
  assert_memory_equal(o->u.bytes, "zA9Z", 4);
  assert_int_equal(call0(f, addr, "decimals", &ret, &dmem), 145914 - 129443);
  assert_int_equal(dmem, 22778 - 19393);
  assert_int_equal(ret, scp_val_u32(7));
  assert_int_equal(call0(f, addr, "name", &ret, &dmem), 175086 - 146416);
  assert_int_equal(dmem, 27682 - 22858);
  o = scp_host_obj(f->h, ret);
  assert_non_null(o);
  assert_int_equal(o->len, 61);   /* "zA9Z:" and the issuer's strkey */
  assert_memory_equal(o->u.bytes, "zA9Z:G", 6);

  /* then the test writes the user's account and trustline (10_000_000 of
   * 100_000_000, authorized) and asks balance(user): steps 146-184,
   * 182385 -> 228167 CPU, 28827 -> 36852 bytes, Ok(I128(10000000)) --
   * the instance TTL bump, read_asset, the trustline's key, read and
   * clone */
  uint8_t user[32], tl[36 + 44 + 24] = { 0 }, acct[56] = { 0 };
  memset(user, 0x22, 32);
  scp_lkey ak = { .type = 0 };
  memcpy(ak.id, user, 32);
  memcpy(acct + 4, user, 32);
  assert_int_equal(scp_storage_seed(f->h, &ak, acct, sizeof acct, 0, true), SCP_OK);
  uint8_t asset[52];
  assert_int_equal(asset_xdr("zA9Z", 4, asset), 44);
  scp_lkey tk = { .type = 1, .key = asset, .keylen = 44 };
  memcpy(tk.id, user, 32);
  memcpy(tl + 4, user, 32);
  memcpy(tl + 36, asset, 44);
  static const uint8_t amounts[16] = { 0, 0, 0, 0, 0, 0x98, 0x96, 0x80,     /* 10_000_000 */
                                       0, 0, 0, 0, 0x05, 0xf5, 0xe1, 0 };   /* 100_000_000 */
  memcpy(tl + 80, amounts, 16);
  tl[99] = 1;
  assert_int_equal(scp_storage_seed(f->h, &tk, tl, sizeof tl, 0, true), SCP_OK);
  uint8_t enc[33] = { 0 };
  memcpy(enc + 1, user, 32);
  scp_hobj ao = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  ao.u.bytes = malloc(33);
  memcpy(ao.u.bytes, enc, 33);
  uint64_t uaddr, args, sym;
  assert_int_equal(scp_host_add_obj(f->h, &ao, &uaddr), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &uaddr, 1, &args), SCP_OK);
  uint64_t cpu = f->b.cpu, mem = f->b.mem;
  assert_int_equal(scp_host_symbol_val(f->h, "balance", &sym), SCP_OK);
  uint64_t a[3] = { addr, sym, args };
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("call"), a, NULL, &ret, &err), SCP_OK);
  assert_int_equal(f->b.cpu - cpu, 228167 - 182385);
  assert_int_equal(f->b.mem - mem, 36852 - 28827);
  assert_int_equal(ret, scp_val_small_i(10000000, SCP_TAG_I128_SMALL));
}

/* cap_73__test_trust_noop_for_contract_address.json: the issuer's account
 * exists before the SAC (default_stellar_asset_contract), so
 * create_asset_contract("aaaa") costs 17593 -> 91161 CPU, 481 -> 12998
 * bytes (steps 2-86); trust(C...) is a no-op after the instance TTL bump
 * (92628 -> 122408, 13182 -> 19360) and balance(C...) of a contract
 * without a balance entry is 0 (123433 -> 157662, 19464 -> 26289). */
static void test_contract_address_trust_and_balance(void **state) {
  fixture *f = *state;
  uint8_t acct[56] = { 0 };
  scp_lkey ik = { .type = 0 };
  memset(ik.id, 0x11, 32);
  memcpy(acct + 4, ik.id, 32);
  assert_int_equal(scp_storage_seed(f->h, &ik, acct, sizeof acct, 0, true), SCP_OK);
  uint8_t b[52];
  uint64_t arg = bytes(f, b, asset_xdr("aaaa", 4, b)), addr;
  uint64_t cpu = f->b.cpu, mem = f->b.mem;
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("create_asset_contract"), &arg, NULL, &addr, &err), SCP_OK);
  assert_int_equal(f->b.cpu - cpu, 91161 - 17593);
  assert_int_equal(f->b.mem - mem, 12998 - 481);
  /* a contract address (contract_id_to_address of generated bytes) */
  scp_hobj co = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  co.u.bytes = calloc(1, 33);
  co.u.bytes[0] = 1;
  memset(co.u.bytes + 1, 0x33, 32);
  uint64_t caddr, args, sym, ret;
  assert_int_equal(scp_host_add_obj(f->h, &co, &caddr), SCP_OK);
  static const char *const fns[2] = { "trust", "balance" };
  static const uint64_t dcpu[2] = { 122408 - 92628, 157662 - 123433 };
  static const uint64_t dmem[2] = { 19360 - 13182, 26289 - 19464 };
  for (int i = 0; i < 2; i++) {
    assert_int_equal(scp_host_vec_new_from_slice(f->h, &caddr, 1, &args), SCP_OK);
    cpu = f->b.cpu;
    mem = f->b.mem;
    assert_int_equal(scp_host_symbol_val(f->h, fns[i], &sym), SCP_OK);
    uint64_t a[3] = { addr, sym, args };
    assert_int_equal(scp_host_call(f->h, fn("call"), a, NULL, &ret, &err), SCP_OK);
    assert_int_equal(f->b.cpu - cpu, dcpu[i]);
    assert_int_equal(f->b.mem - mem, dmem[i]);
  }
  assert_int_equal(ret, scp_val_small_i(0, SCP_TAG_I128_SMALL));
}

/* test_account_balance.json: the native SAC, then the user's account
 * (100_000_000 stroops) and balance(G...): 69666 -> 100935 CPU, 8130 ->
 * 13270 bytes, Ok(I128(100000000)): the account key, its read, the
 * balance read in place. */
static void test_native_account_balance(void **state) {
  fixture *f = *state;
  create_ok(f, "", 0, 65804, 7512, 13);
  uint8_t acct[56] = { 0 };
  scp_lkey ak = { .type = 0 };
  memset(ak.id, 0x22, 32);
  memcpy(acct + 4, ak.id, 32);
  static const uint8_t bal[8] = { 0, 0, 0, 0, 0x05, 0xf5, 0xe1, 0 };   /* 100_000_000 */
  memcpy(acct + 36, bal, 8);
  assert_int_equal(scp_storage_seed(f->h, &ak, acct, sizeof acct, 0, true), SCP_OK);
  scp_hobj uo = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  uo.u.bytes = calloc(1, 33);
  memset(uo.u.bytes + 1, 0x22, 32);
  uint64_t uaddr, args, sym, ret;
  assert_int_equal(scp_host_add_obj(f->h, &uo, &uaddr), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &uaddr, 1, &args), SCP_OK);
  uint64_t cpu = f->b.cpu, mem = f->b.mem;
  assert_int_equal(scp_host_symbol_val(f->h, "balance", &sym), SCP_OK);
  uint64_t a[3] = { scp_val_object(SCP_TAG_ADDRESS_OBJ, 25), sym, args };
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("call"), a, NULL, &ret, &err), SCP_OK);
  assert_int_equal(f->b.cpu - cpu, 100935 - 69666);
  assert_int_equal(f->b.mem - mem, 13270 - 8130);
  assert_int_equal(ret, scp_val_small_i(100000000, SCP_TAG_I128_SMALL));
}

/* The issuer's account 0x11.. and, for each of users 0x22.. and 0x33..,
 * an account and a "aaaa" trustline (create_default_account /
 * create_default_trustline; live entries of the storage map). */
static void seed_issuer(fixture *f) {
  uint8_t acct[56] = { 0 };
  scp_lkey ik = { .type = 0 };
  memset(ik.id, 0x11, 32);
  memcpy(acct + 4, ik.id, 32);
  assert_int_equal(scp_storage_seed(f->h, &ik, acct, sizeof acct, 0, true), SCP_OK);
}

/* The set-up most traces share: (the base PRNG seed of zeros when the
 * trace's steps draw on it, e.g. a tracker's nonce), the issuer's
 * account, then create_asset_contract("aaaa"); returns the contract's
 * Address. */
static uint64_t aaaa_contract(fixture *f, bool zero_seed) {
  uint8_t seed[32] = { 0 }, b[52];
  if (zero_seed) assert_int_equal(scp_host_set_base_prng_seed(f->h, seed), SCP_OK);
  seed_issuer(f);
  uint64_t arg = bytes(f, b, asset_xdr("aaaa", 4, b)), addr = 0;
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("create_asset_contract"), &arg, NULL, &addr, &err), SCP_OK);
  return addr;
}

static void seed_user(fixture *f, uint8_t who, const char *code) {
  uint8_t acct[56] = { 0 }, tl[36 + 44 + 24] = { 0 }, asset[52];
  scp_lkey ak = { .type = 0 };
  memset(ak.id, who, 32);
  memcpy(acct + 4, ak.id, 32);
  assert_int_equal(scp_storage_seed(f->h, &ak, acct, sizeof acct, 0, true), SCP_OK);
  assert_int_equal(asset_xdr(code, strlen(code), asset), 44);
  scp_lkey tk = { .type = 1, .key = asset, .keylen = 44 };
  memcpy(tk.id, ak.id, 32);
  memcpy(tl + 4, ak.id, 32);
  memcpy(tl + 36, asset, 44);
  memset(tl + 88, 0xff, 8);   /* limit i64::MAX */
  tl[88] = 0x7f;
  tl[99] = 1;                 /* AUTHORIZED_FLAG */
  assert_int_equal(scp_storage_seed(f->h, &tk, tl, sizeof tl, 0, true), SCP_OK);
}

/* test_set_admin.json steps 87-106: after create_asset_contract("aaaa")
 * (the issuer's account exists) and two users' accounts and trustlines,
 * admin() costs 103191 -> 132867 CPU, 15744 -> 21012 bytes and returns
 * the issuer's Address (read_administrator: the key, the instance read). */
static void test_admin(void **state) {
  fixture *f = *state;
  uint64_t addr = aaaa_contract(f, false), ret, dmem;
  seed_user(f, 0x22, "aaaa");
  seed_user(f, 0x33, "aaaa");
  assert_int_equal(call0(f, addr, "admin", &ret, &dmem), 132867 - 103191);
  assert_int_equal(dmem, 21012 - 15744);
  const scp_hobj *o = scp_host_obj(f->h, ret);
  assert_non_null(o);
  assert_int_equal(o->tag, SCP_TAG_ADDRESS_OBJ);
  assert_int_equal(o->u.bytes[0], 0);
  assert_int_equal(o->u.bytes[1], 0x11);
  assert_int_equal(o->u.bytes[32], 0x11);
}

/* The entries a mint by the issuer (signed authorization) leaves behind
 * besides the balances: the issuer's nonce (a Temporary entry of an
 * account address) and the instance extended to the ledger's 123 +
 * INSTANCE_EXTEND_AMOUNT. */
static void seed_after_mint(fixture *f) {
  uint8_t key[12] = { 0, 0, 0, 21, 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0x01 };
  static const uint8_t void_val[4] = { 0, 0, 0, 1 };
  scp_lkey nk = { .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_TEMPORARY, .account = true,
                  .key = key, .keylen = sizeof key };
  memset(nk.id, 0x11, 32);
  assert_int_equal(scp_storage_seed(f->h, &nk, void_val, sizeof void_val, 123 + 6311000, true),
                   SCP_OK);
  for (size_t i = 0; i < f->h->nstore; i++)
    if (f->h->store[i].present && f->h->store[i].k.type == SCP_LK_CONTRACT_DATA &&
        f->h->store[i].k.dur == SCP_DUR_PERSISTENT)
      f->h->store[i].live_until = 123 + 7 * 17280;
}

/* call(asset, fn, [a, b]): the budget delta from after the args' Vec to
 * the ret. */
static uint64_t call2(fixture *f, uint64_t addr, const char *name, uint64_t x, uint64_t y,
                      uint64_t *ret, uint64_t *dmem) {
  uint64_t v[2] = { x, y }, args, sym;
  scp_error err;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, v, 2, &args), SCP_OK);
  uint64_t cpu = f->b.cpu, mem = f->b.mem;
  assert_int_equal(scp_host_symbol_val(f->h, name, &sym), SCP_OK);
  uint64_t a[3] = { addr, sym, args };
  int rc = scp_host_call(f->h, fn("call"), a, NULL, ret, &err);
  if (rc != SCP_OK) print_message("call %s: %d %s\n", name, rc, err.msg);
  assert_int_equal(rc, SCP_OK);
  *dmem = f->b.mem - mem;
  return f->b.cpu - cpu;
}

static uint64_t account_addr(fixture *f, uint8_t who) {
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = calloc(1, 33);
  memset(o.u.bytes + 1, who, 32);
  uint64_t v;
  assert_int_equal(scp_host_add_obj(f->h, &o, &v), SCP_OK);
  return v;
}

/* test_burn.json steps 323-340: after the mint to user and two balance
 * calls, allowance(user, user_2) of a missing allowance is 0 and costs
 * 763297 -> 801926 CPU, 60604 -> 68794 bytes (the instance TTL bump, the
 * AllowanceDataKey map and DataKey Vec, has_contract_data(Temporary)). */
static void test_allowance_missing(void **state) {
  fixture *f = *state;
  uint64_t addr = aaaa_contract(f, false), ret, dmem;
  seed_user(f, 0x22, "aaaa");
  seed_user(f, 0x33, "aaaa");
  seed_after_mint(f);
  uint64_t u1 = account_addr(f, 0x22), u2 = account_addr(f, 0x33);
  assert_int_equal(call2(f, addr, "allowance", u1, u2, &ret, &dmem), 801926 - 763297);
  assert_int_equal(dmem, 68794 - 60604);
  assert_int_equal(ret, scp_val_small_i(0, SCP_TAG_I128_SMALL));
}

/* test_do_not_init_contract_for_invalid_asset.json: "\0\0\0\0" fails in
 * init_asset's validate_asset after has_contract_data (step 18, cpu 45522
 * mem 5494) and the Asset's VisitObject + ValDeser(44) (1892 CPU, 132
 * bytes): step 19 pops the SAC frame with Error(Value, InvalidInput) at
 * cpu 47414 mem 5626, and the instance entry is rolled back. */
static void test_create_invalid(void **state) {
  fixture *f = *state;
  uint8_t b[52];
  uint32_t n = asset_xdr("\0\0\0\0", 4, b);
  uint64_t arg = bytes(f, b, n), ret = 0;
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("create_asset_contract"), &arg, NULL, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_INVALID_INPUT));
  assert_int_equal(f->b.cpu, 47414);
  assert_int_equal(f->b.mem, 5626);
  assert_int_equal(live_entries(f), 0);
}

/* get_asset_contract_id(native) from cpu 15248 mem 100:
 *   result check of the argument (VisitObject)            60
 *   metered_from_xdr_obj: VisitObject 60, ValDeser(4) 467  mem 12
 *   get_ledger_network_id (as traced)                    1031  mem 128
 *   hash_from_bytesobj_input: VisitObject 60, MemCpy(32) 46
 *   ValSer of 4 pieces: 221 + 227 + 221 + 221 = 890      mem 254+338+254+254
 *   ComputeSha256Hash(44): 3636 + 7013*44/128 = 6046
 *   the Address object: MemAlloc(64) 442                  mem 80
 *   the result's check (VisitObject)                       60
 * = cpu 24410, mem 1420. */
static void test_get_id_native(void **state) {
  fixture *f = *state;
  uint64_t arg = bytes(f, native, 4), ret = 0;
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("get_asset_contract_id"), &arg, NULL, &ret, &err),
                   SCP_OK);
  assert_int_equal(f->b.cpu, 24410);
  assert_int_equal(f->b.mem, 1420);
  const scp_hobj *o = scp_host_obj(f->h, ret);
  assert_non_null(o);
  assert_int_equal(o->tag, SCP_TAG_ADDRESS_OBJ);
  assert_int_equal(o->u.bytes[0], 1);
  static const uint8_t want[4] = { 0x7b, 0xe7, 0x41, 0x39 };
  assert_memory_equal(o->u.bytes + 1, want, 4);
}

/* An Asset of 44 zero bytes is AssetType native with trailing bytes:
 * Error(Value, InvalidInput) after VisitObject x2 and ValDeser(44). */
static void test_get_id_invalid(void **state) {
  fixture *f = *state;
  uint8_t zeros[44] = { 0 };
  uint64_t arg = bytes(f, zeros, 44), ret = 0;
  uint64_t cpu = f->b.cpu;
  scp_error err;
  assert_int_equal(scp_host_call(f->h, fn("get_asset_contract_id"), &arg, NULL, &ret, &err),
                   SCP_ERR_HOST);
  assert_int_equal(f->b.cpu - cpu, 60 + 60 + 1832);
  assert_int_equal(ret, scp_val_error(SCP_ET_VALUE, SCP_EC_INVALID_INPUT));
}

/* A contract calling the SAC (tests/fixtures/wasm/sac_user.c): the SAC's
 * frames are contract:SAC nodes under the host call that runs them, and
 * the profile still adds up (Σ self == the budget). */
static int prof_find(const scp_profile *p, const char *name, uint32_t parent_of) {
  for (size_t i = 0; i < p->nnodes; i++)
    if (!strcmp(scp_prof_str(p, p->frames[p->nodes[i].frame].name), name) &&
        (parent_of == UINT32_MAX || p->nodes[i].parent == parent_of))
      return (int)i;
  return -1;
}

static void test_profile_from_wasm(void **state) {
  (void)state;
  const char *path = build_path("tests/fixtures/wasm/sac_user.wasm");
  uint8_t *wasm = NULL;
  size_t len = 0;
  scp_error err;
  if (scp_read_file(path, &wasm, &len, &err) != SCP_OK) fail_msg("%s: %s", path, err.msg);
  scp_soroban_opts o = { .wasm_path = "sac_user.wasm", .wasm = wasm, .wasm_len = len,
                         .function = "run" };
  scp_profile *p = NULL;
  assert_int_equal(scp_soroban_profile(&o, &p, &err), SCP_OK);
  assert_true(scp_prof_check(p));
  uint64_t cpu = 0, mem = 0;
  for (size_t i = 0; i < p->nnodes; i++) {
    cpu += p->nodes[i].self[0];
    mem += p->nodes[i].self[1];
  }
  assert_int_equal(cpu, scp_profile_total(p, 0));
  assert_int_equal(mem, scp_profile_total(p, 1));
  int create = prof_find(p, "host:create_asset_contract", UINT32_MAX);
  int call = prof_find(p, "host:call", UINT32_MAX);
  assert_true(create >= 0 && call >= 0);
  int sac1 = prof_find(p, "contract:SAC", (uint32_t)create);   /* AssetInfo is written in init_asset */
  int sac2 = prof_find(p, "contract:SAC(native)", (uint32_t)call);
  assert_true(sac1 >= 0 && sac2 >= 0);
  assert_int_equal(p->nodes[sac1].calls, 1);   /* init_asset */
  assert_int_equal(p->nodes[sac2].calls, 2);   /* name, decimals */
  assert_true(p->nodes[sac1].self[0] > 0 && p->nodes[sac2].self[0] > 0);
  const char *result = NULL;
  for (size_t i = 0; i < p->nmeta; i++)
    if (!strcmp(scp_prof_str(p, p->meta[i].key), "result")) result = scp_prof_str(p, p->meta[i].value);
  assert_non_null(result);
  assert_non_null(strstr(result, "native"));
  scp_profile_destroy(p);
  free(wasm);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_decode),
    cmocka_unit_test(test_native_id),
    cmocka_unit_test_setup_teardown(test_create_native, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_asset4, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_asset4_trailing_zero, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_asset12, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_asset12_trailing_zero, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_create_invalid, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_metadata_calls, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_contract_address_trust_and_balance, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_native_account_balance, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_admin, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_allowance_missing, fixture_open_sac, fixture_close),
    cmocka_unit_test(test_profile_from_wasm),
    cmocka_unit_test_setup_teardown(test_get_id_native, fixture_open_sac, fixture_close),
    cmocka_unit_test_setup_teardown(test_get_id_invalid, fixture_open_sac, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
