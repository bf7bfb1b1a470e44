/*
 * test_auth_enf.c — enforcing-mode authorization with signed entries
 * (host_auth_enf.c), against the reference's traces.
 *
 * test__stellar_asset_contract__test_auth_rejected_for_incorrect_nonce.json
 * makes the issuer (admin) sign mint(user, 100) of its asset contract three
 * times, each entry with AddressV2 or legacy Address credentials at random
 * (the test's PRNG), on ledger 123:
 *  - expiration 122 (AddressV2): require_auth, steps 145 -> 180, costs
 *    451,763 CPU / 6,970 B and fails with Error(Auth, InvalidInput)
 *    ("signature has expired"), after the signature was checked;
 *  - expiration 123 + 6,312,000 (legacy Address): 692,632 -> 1,141,426,
 *    448,794 CPU / 6,124 B, Error(Auth, InvalidInput) ("too late");
 *  - expiration 123 (AddressV2): 1,214,316 -> 1,673,336, 459,020 CPU /
 *    8,484 B, Ok, the nonce written.
 * The parts (the trace's own steps): the args' clone and the name 628 / 32
 * B, the tracker's address compared twice (2 x 290), the function (its
 * contract and the user's address, 2 x 290; "mint" and I128(100) compare
 * free), the payload up to its Bytes (21,280 / 5,962 B with the address,
 * 18,311 / 5,116 without), the auth contexts, the account's load, the
 * signature's unpacking, verify_sig_ed25519 (419,231), the key's
 * bytes_copy_to_slice (106), the Uint256 clone (46); then the nonce
 * (7,257 / 1,514 B).  Here the state is the one test_auth.c builds for the
 * same asset contract (its issuer's key sorts before the user's, as in the
 * trace), the signer a libsodium key pair, the signature real.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <openssl/sha.h>
#include <sodium.h>

#include "soroban/core/host_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/sac/sac_private.h"
#include "host_fixture.h"
#include "xdr_hand.h"

/* ---- XDR, written by hand (an independent check of the host's) ------------------ */

/* A SorobanAuthorizedInvocation of contract `cid`'s fn(args) with no
 * sub-invocations; args: the user's account address, I128(100). */
static void invocation(xb *b, const uint8_t cid[32], const char *fn, const uint8_t user[32]) {
  x32(b, 0);   /* CONTRACT_FN */
  xaddr(b, 1, cid);
  xvar(b, fn, strlen(fn));
  x32(b, 2);
  x32(b, 18);   /* SCV_ADDRESS */
  xaddr(b, 0, user);
  x32(b, 10);   /* SCV_I128 */
  x64(b, 0);
  x64(b, 100);
  x32(b, 0);   /* no sub-invocations */
}

/* The signature: Vec[Map{public_key: Bytes(pk), signature: Bytes(sig)}]. */
static void signature_val(xb *b, const uint8_t pk[32], const uint8_t sig[64]) {
  x32(b, 16);   /* SCV_VEC */
  x32(b, 1);
  x32(b, 1);
  x32(b, 17);   /* SCV_MAP */
  x32(b, 1);
  x32(b, 2);
  x32(b, 15);
  xvar(b, "public_key", 10);
  x32(b, 13);
  xvar(b, pk, 32);
  x32(b, 15);
  xvar(b, "signature", 9);
  x32(b, 13);
  xvar(b, sig, 64);
}

typedef struct signer {
  uint8_t pk[32], sk[64];
} signer;

static void signer_from_seed(signer *s, uint8_t fill) {
  uint8_t seed[32];
  memset(seed, fill, 32);
  assert_true(sodium_init() >= 0);
  crypto_sign_seed_keypair(s->pk, s->sk, seed);
}

/* What account pk signs for invocation inv: the SHA-256 of the
 * HashIdPreimage (ENVELOPE_TYPE_SOROBAN_AUTHORIZATION, 9; the V2 form, 10,
 * names the address too). */
static void entry_payload(uint8_t hash[32], const xb *inv, int cred, const uint8_t network[32],
                          int64_t nonce, uint32_t exp, const uint8_t pk[32]) {
  xb pre = { .n = 0 };
  x32(&pre, cred == 2 ? 10 : 9);
  xbytes(&pre, network, 32);
  x64(&pre, (uint64_t)nonce);
  x32(&pre, exp);
  if (cred == 2) xaddr(&pre, 0, pk);
  xbytes(&pre, inv->p, inv->n);
  SHA256(pre.p, pre.n, hash);
}

/* An entry's credentials up to the signature: the arm, the account's
 * address, the nonce and the expiration ledger. */
static void entry_head(xb *e, int cred, const uint8_t pk[32], int64_t nonce, uint32_t exp) {
  e->n = 0;
  x32(e, (uint32_t)cred);
  xaddr(e, 0, pk);
  x64(e, (uint64_t)nonce);
  x32(e, exp);
}

/* A signed entry: cred 1 (Address) or 2 (AddressV2). */
static void signed_entry(xb *e, const signer *s, int cred, int64_t nonce, uint32_t exp,
                         const uint8_t cid[32], const char *fn, const uint8_t user[32],
                         const uint8_t network[32]) {
  xb inv = { .n = 0 };
  invocation(&inv, cid, fn, user);
  uint8_t hash[32], sig[64];
  entry_payload(hash, &inv, cred, network, nonce, exp, s->pk);
  crypto_sign_detached(sig, NULL, hash, 32, s->sk);
  entry_head(e, cred, s->pk, nonce, exp);
  signature_val(e, s->pk, sig);
  xbytes(e, inv.p, inv.n);
}

static void set_entries(fixture *f, xb *e, size_t n) {
  const uint8_t *p[4];
  size_t l[4];
  for (size_t i = 0; i < n; i++) {
    p[i] = e[i].p;
    l[i] = e[i].n;
  }
  scp_error err = { 0 };
  int rc = scp_host_set_auth_entries(f->h, p, l, n, &err);
  if (rc) print_message("set entries: %s\n", err.msg);
  assert_int_equal(rc, SCP_OK);
}

/* ---- the asset contract's state (as test_auth.c's sac_mint_state) --------------- */

static const uint8_t SAC_ID = 0x2e, USER = 0xee;

static void seed_account(fixture *f, const uint8_t key[32], uint8_t master, uint8_t med,
                         const uint8_t (*signers)[32], const uint8_t *weights, uint32_t nsig) {
  uint8_t acct[256] = { 0 };
  scp_lkey k = { .type = SCP_LK_ACCOUNT };
  memcpy(k.id, key, 32);
  memcpy(acct + 4, key, 32);
  acct[68] = master;   /* thresholds: master weight, low, med, high */
  acct[70] = med;
  acct[75] = (uint8_t)nsig;
  for (uint32_t i = 0; i < nsig; i++) {
    memcpy(acct + 80 + 40 * i, signers[i], 32);
    acct[80 + 40 * i + 35] = weights[i];
  }
  assert_int_equal(scp_storage_seed(f->h, &k, acct, 80 + 40 * nsig, 0, true), SCP_OK);
}

static void sac_state(fixture *f, const uint8_t issuer[32]) {
  enum { LK_TRUSTLINE = 1 };
  uint8_t v[4] = { 0 }, kb[4], id[32], user[32];
  static uint8_t asset[4] = { 0, 0, 0, 1 };
  memset(user, USER, 32);
  scp_lkey k = { .type = LK_TRUSTLINE, .key = asset, .keylen = 4 };
  memset(k.id, USER, 32);
  assert_int_equal(scp_storage_seed(f->h, &k, v, 4, 1000, true), SCP_OK);
  static const uint8_t w100 = 100;
  seed_account(f, issuer, 1, 0, (const uint8_t (*)[32])issuer, &w100, 1);
  seed_account(f, user, 1, 0, NULL, NULL, 0);
  memset(id, SAC_ID, 32);
  scp_lc_instance_key(id, &k, kb);
  assert_int_equal(scp_storage_seed(f->h, &k, v, 4, 1000, true), SCP_OK);
}

static uint64_t address_of(fixture *f, unsigned kind, const uint8_t key[32]) {
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  o.u.bytes = calloc(1, 33);
  assert_non_null(o.u.bytes);
  o.u.bytes[0] = (uint8_t)kind;
  memcpy(o.u.bytes + 1, key, 32);
  uint64_t v;
  assert_int_equal(scp_host_add_obj(f->h, &o, &v), SCP_OK);
  return v;
}

/* The mint frame (pushed after the entries, as host.call does). */
static void mint_frame(fixture *f) {
  uint8_t id[32], user[32];
  memset(id, SAC_ID, 32);
  memset(user, USER, 32);
  assert_int_equal(scp_host_charge_push_context(f->h, id), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(f->h, id), SCP_OK);
  assert_int_equal(scp_host_set_frame_fn(f->h, "mint"), SCP_OK);
  uint64_t args[2] = { address_of(f, 0, user), scp_val_small_i(100, SCP_TAG_I128_SMALL) };
  assert_int_equal(scp_host_set_frame_args(f->h, args, 2), SCP_OK);
}

typedef struct delta { uint64_t cpu, mem; int rc; uint64_t ret; } delta;

static delta require_auth(fixture *f, uint64_t who) {
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  scp_error err;
  delta d = { 0 };
  d.rc = scp_host_call(f->h, fn("require_auth"), &who, &f->mem, &d.ret, &err);
  if (d.rc) print_message("require_auth: %s\n", err.msg);
  d.cpu = f->b.cpu - c0;
  d.mem = f->b.mem - m0;
  return d;
}

static void assert_error(delta d, unsigned type, unsigned code) {
  assert_int_equal(d.rc, SCP_ERR_HOST);
  assert_int_equal(d.ret, scp_val_error(type, code));
}

/* The SAC's state with s (seed 1) as its issuer, and one entry of s's
 * authorizing fn(user) on the SAC, set as the transaction's entries. */
static void sac_signed_entry(fixture *f, signer *s, int cred, int64_t nonce, uint32_t exp,
                             const char *fn) {
  uint8_t cid[32], user[32];
  memset(cid, SAC_ID, 32);
  memset(user, USER, 32);
  signer_from_seed(s, 1);
  assert_true(s->pk[0] < USER);   /* sorts before the user, as the trace's issuer */
  sac_state(f, s->pk);
  xb e;
  signed_entry(&e, s, cred, nonce, exp, cid, fn, user, f->h->opts.network_id);
  set_entries(f, &e, 1);
}

/* One mint entry signed by a fresh issuer; the admin's require_auth. */
static delta mint_with(fixture *f, int cred, uint32_t exp, signer *s) {
  sac_signed_entry(f, s, cred, 12345, exp, "mint");
  mint_frame(f);
  return require_auth(f, address_of(f, 0, s->pk));
}

static void test_expired_v2(void **state) {
  fixture *f = *state;
  signer s;
  delta d = mint_with(f, 2, 122, &s);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_INPUT);
  assert_int_equal(d.cpu, 622603 - 170840);
  assert_int_equal(d.mem, 35519 - 28549);
}

static void test_too_late_v1(void **state) {
  fixture *f = *state;
  signer s;
  delta d = mint_with(f, 1, 123 + 6312000, &s);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_INPUT);
  assert_int_equal(d.cpu, 1141426 - 692632);
  assert_int_equal(d.mem, 55009 - 48885);
}

static void test_success_v2(void **state) {
  fixture *f = *state;
  signer s;
  size_t n0 = 0;
  delta d = mint_with(f, 2, 123, &s);
  (void)n0;
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 1673336 - 1214316);
  assert_int_equal(d.mem, 77705 - 69221);
  assert_int_equal(f->h->nstore, 5);   /* the nonce */
  /* the same frame again: already matched, and no other tree -> refused */
  delta d2 = require_auth(f, address_of(f, 0, s.pk));
  assert_error(d2, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
}

/* A signature Vec of several (key, signature) pairs in the given order,
 * over `hash`. */
static void multi_entry(xb *e, const signer *acct, const signer *const *by, size_t n, int cred,
                        const uint8_t cid[32], const uint8_t user[32], const uint8_t network[32],
                        bool corrupt) {
  xb inv = { .n = 0 };
  invocation(&inv, cid, "mint", user);
  uint8_t hash[32];
  entry_payload(hash, &inv, cred, network, 12345, 200, acct->pk);
  if (corrupt) hash[0] ^= 1;
  entry_head(e, cred, acct->pk, 12345, 200);
  x32(e, 16);
  x32(e, 1);
  x32(e, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    uint8_t sig[64];
    crypto_sign_detached(sig, NULL, hash, 32, by[i % 2]->sk);
    x32(e, 17);
    x32(e, 1);
    x32(e, 2);
    x32(e, 15);
    xvar(e, "public_key", 10);
    x32(e, 13);
    xvar(e, by[i % 2]->pk, 32);
    x32(e, 15);
    xvar(e, "signature", 9);
    x32(e, 13);
    xvar(e, sig, 64);
  }
  xbytes(e, inv.p, inv.n);
}

/* The account of `a` with `b` as a second signer of weight wb; thresholds
 * master 1, medium `med`. */
static delta multisig(fixture *f, const signer *a, const signer *b, uint8_t wb, uint8_t med,
                      const signer *const *by, size_t n, bool corrupt) {
  uint8_t cid[32], user[32];
  memset(cid, SAC_ID, 32);
  memset(user, USER, 32);
  enum { LK_TRUSTLINE = 1 };
  uint8_t v[4] = { 0 }, kb[4];
  static uint8_t asset[4] = { 0, 0, 0, 1 };
  scp_lkey k = { .type = LK_TRUSTLINE, .key = asset, .keylen = 4 };
  memset(k.id, USER, 32);
  assert_int_equal(scp_storage_seed(f->h, &k, v, 4, 1000, true), SCP_OK);
  seed_account(f, a->pk, 1, med, (const uint8_t (*)[32])b->pk, &wb, b ? 1 : 0);
  seed_account(f, user, 1, 0, NULL, NULL, 0);
  scp_lc_instance_key(cid, &k, kb);
  assert_int_equal(scp_storage_seed(f->h, &k, v, 4, 1000, true), SCP_OK);
  xb e;
  multi_entry(&e, a, by, n, 2, cid, user, f->h->opts.network_id, corrupt);
  set_entries(f, &e, 1);
  mint_frame(f);
  return require_auth(f, address_of(f, 0, a->pk));
}

/* Up to the signatures' vec_len (V2, mint's 2 args): the args' clone 628 /
 * 32 B, 4 address compares 1,160, the payload 21,280 / 5,962 B and its
 * Bytes 971 / 128 B, the contexts (vec_new 502 / 80, the args' Vec 1,027 /
 * 112, the map 1,152 / 168, the enum's Vec 1,027 / 112, vec_push_back
 * 1,205 / 104), vec_len 120. */
enum { TO_VEC_LEN_CPU = 628 + 1160 + 21280 + 971 + 502 + 1027 + 1152 + 1027 + 1205 + 120,
       TO_VEC_LEN_MEM = 32 + 5962 + 128 + 80 + 112 + 168 + 112 + 104 };

/* test_classic_account_multisig_auth.json: 21 signatures fail right after
 * vec_len (steps 1882 -> 1884: nothing more charged). */
static void test_too_many_signatures(void **state) {
  fixture *f = *state;
  signer a, b;
  signer_from_seed(&a, 1);
  signer_from_seed(&b, 2);
  const signer *by[2] = { &a, &b };
  delta d = multisig(f, &a, &b, 1, 0, by, 21, false);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, TO_VEC_LEN_CPU);
  assert_int_equal(d.mem, TO_VEC_LEN_MEM);
}

/* Two signers (keys increasing), medium threshold 2: the second signature
 * costs what the multisig trace's does (steps 129 -> 143): vec_get 223,
 * map_unpack_to_slice 347, two bytes_len 240, the keys' obj_cmp 288,
 * verify_sig_ed25519 419,231, bytes_copy_to_slice 106, its Uint256 clone
 * 46 (the account, like the issuer's, has one extra signer). */
static void test_multisig_two_signers(void **state) {
  fixture *f = *state;
  signer a, b;
  signer_from_seed(&a, 1);
  signer_from_seed(&b, 2);
  bool ab = memcmp(a.pk, b.pk, 32) < 0;
  const signer *by[2] = { ab ? &a : &b, ab ? &b : &a };
  delta d = multisig(f, &a, &b, 1, 2, by, 2, false);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, (1673336 - 1214316) + 46 + 223 + 347 + 240 + 288 + 419231 + 106);
  assert_int_equal(d.mem, 77705 - 69221);
}

/* The same signatures in decreasing order: the second key's compare
 * fails (test_classic_account_multisig_auth.json steps 2026 -> 2028:
 * nothing charged after the obj_cmp). */
static void test_unsorted_signers(void **state) {
  fixture *f = *state;
  signer a, b;
  signer_from_seed(&a, 1);
  signer_from_seed(&b, 2);
  bool ab = memcmp(a.pk, b.pk, 32) < 0;
  const signer *by[2] = { ab ? &b : &a, ab ? &a : &b };
  delta d = multisig(f, &a, &b, 1, 2, by, 2, false);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  /* up to the second key's compare: the one-signature success less the
   * nonce (7,257 / 1,514 B), plus the second signature's unpacking */
  assert_int_equal(d.cpu, (1673336 - 1214316) - 7257 + 223 + 347 + 240 + 288);
  assert_int_equal(d.mem, (77705 - 69221) - 1514);
}

/* One signer with weight 1 against a medium threshold of 2: everything is
 * checked, then Error(Contract, AuthenticationError) becomes Error(Auth,
 * InvalidAction); no nonce is written. */
static void test_below_threshold(void **state) {
  fixture *f = *state;
  signer a, b;
  signer_from_seed(&a, 1);
  signer_from_seed(&b, 2);
  const signer *by[2] = { &a, &a };
  delta d = multisig(f, &a, &b, 1, 2, by, 1, false);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  assert_int_equal(d.cpu, (1673336 - 1214316) - 7257);
  assert_int_equal(d.mem, (77705 - 69221) - 1514);
  assert_int_equal(f->h->nstore, 4);
}

/* A signer the account does not list: weight 0 is an error. */
static void test_signer_not_in_account(void **state) {
  fixture *f = *state;
  signer a, b;
  signer_from_seed(&a, 1);
  signer_from_seed(&b, 2);
  const signer *by[2] = { &b, &b };
  delta d = multisig(f, &a, &a, 1, 0, by, 1, false);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
}

/* A signature over another payload: verify_sig_ed25519 fails (its charge
 * made), Error(Crypto, InvalidInput) becomes Error(Auth, InvalidAction). */
static void test_bad_signature(void **state) {
  fixture *f = *state;
  signer a;
  signer_from_seed(&a, 1);
  const signer *by[2] = { &a, &a };
  delta d = multisig(f, &a, &a, 1, 0, by, 1, true);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  /* the success path less the weight lookup's copy and copy-out (106 +
   * 46) and the nonce */
  assert_int_equal(d.cpu, (1673336 - 1214316) - 7257 - 46 - 106);
  assert_int_equal(d.mem, (77705 - 69221) - 1514);
}

/* The nonce already on the ledger: consume_nonce finds it, Error(Auth,
 * ExistingValue), after the whole signature check. */
static void test_used_nonce(void **state) {
  fixture *f = *state;
  signer s;
  signer_from_seed(&s, 1);
  uint8_t key[12] = { 0, 0, 0, 21, 0, 0, 0, 0, 0, 0, 0x30, 0x39 };   /* LedgerKeyNonce(12345) */
  static const uint8_t void_val[4] = { 0, 0, 0, 1 };
  scp_lkey nk = { .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_TEMPORARY, .account = true,
                  .key = key, .keylen = sizeof key };
  memcpy(nk.id, s.pk, 32);
  assert_int_equal(scp_storage_seed(f->h, &nk, void_val, 4, 1000, true), SCP_OK);
  delta d = mint_with(f, 2, 123, &s);
  assert_error(d, SCP_ET_AUTH, SCP_EC_EXISTING_VALUE);
}

/* An entry for another function does not authorize mint. */
static void test_unmatched_function(void **state) {
  fixture *f = *state;
  signer s;
  sac_signed_entry(f, &s, 2, 1, 123, "burn");
  mint_frame(f);
  delta d = require_auth(f, address_of(f, 0, s.pk));
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  /* the args' clone, 2 address compares, then the function's: the
   * contract (290); the names differ (both small: free) */
  assert_int_equal(d.cpu, 628 + 2 * 290 + 290);
}

/* The entry's cost (AuthorizationManager::new_enforcing), Void signature:
 * the tracker Vec (bulk init of 1 x 328: 45 + 475 + 83 = 603 / 344 B),
 * the address object 442 / 80 B, the root's empty sub-invocations' collect
 * 523 / 16 B, its contract's address object 442 / 80, scvals_to_val_vec
 * of 2 (47 + 440 + 48 = 535 / 64 B), the Address arg's ScAddress clone
 * (48) and object 442 / 80. */
static void test_entry_charges(void **state) {
  fixture *f = *state;
  uint8_t cid[32], user[32], who[32];
  memset(cid, SAC_ID, 32);
  memset(user, USER, 32);
  memset(who, 0x11, 32);
  xb e = { .n = 0 };
  x32(&e, 1);
  xaddr(&e, 0, who);
  x64(&e, 7);
  x32(&e, 200);
  x32(&e, 1);   /* SCV_VOID */
  invocation(&e, cid, "mint", user);
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  set_entries(f, &e, 1);
  assert_int_equal(f->b.cpu - c0, 603 + 442 + 523 + 442 + 535 + 48 + 442);
  assert_int_equal(f->b.mem - m0, 344 + 80 + 16 + 80 + 64 + 80);
  /* a contract frame's push then costs 1,072 CPU / 144 B more than with
   * no entries: the tracker's match-stack entry (523 / 24 B), the
   * snapshot Vec's one element (26 / 104 B), the root's snapshot collect
   * (523 / 16 B) -- what test_sac.c subtracts from the reference's
   * one-tracker enforcing traces */
  uint8_t id[32];
  memset(id, 0x44, 32);
  c0 = f->b.cpu;
  m0 = f->b.mem;
  assert_int_equal(scp_host_charge_push_context(f->h, id), SCP_OK);
  uint64_t with_cpu = f->b.cpu - c0, with_mem = f->b.mem - m0;
  scp_budget b2;
  scp_budget_init(&b2, 0, 0);
  scp_host_opts o = { .auth_enforcing = true };
  scp_host *h2;
  assert_int_equal(scp_host_create(&b2, &o, &h2), SCP_OK);
  assert_int_equal(scp_host_charge_push_context(h2, id), SCP_OK);
  assert_int_equal(with_cpu - b2.cpu, 1072);
  assert_int_equal(with_mem - b2.mem, 144);
  scp_host_destroy(h2);
}

/* A failing frame's rollback: the tree's root is matched and the tracker
 * verified inside it; after the rollback (storage too, so the nonce is
 * gone) the same call matches and authenticates again (the signature
 * check charged again; the nonce's key is already in the footprint, which
 * is not rolled back, so its write is cheaper).  Without the rollback the
 * exhausted tree refuses a second call. */
static void test_rollback(void **state) {
  fixture *f = *state;
  signer s;
  sac_signed_entry(f, &s, 2, 12345, 123, "mint");
  uint64_t who = address_of(f, 0, s.pk);
  delta d[2];
  for (int k = 0; k < 2; k++) {
    scp_auth_mgr_snap *as = NULL;
    scp_sentry *ss = NULL;
    size_t ns = 0;
    assert_int_equal(scp_storage_snapshot(f->h, &ss, &ns), SCP_OK);
    assert_int_equal(scp_auth_mgr_save(f->h, &as), SCP_OK);
    mint_frame(f);
    d[k] = require_auth(f, who);
    assert_int_equal(d[k].rc, SCP_OK);
    scp_host_pop_frame(f->h);
    scp_storage_rollback(f->h, ss, ns);
    scp_auth_mgr_restore(f->h, as);
  }
  assert_true(d[1].cpu > 419231 + 21280 && d[1].cpu <= d[0].cpu);
  mint_frame(f);
  assert_int_equal(require_auth(f, who).rc, SCP_OK);
  scp_host_pop_frame(f->h);
  mint_frame(f);
  assert_error(require_auth(f, who), SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
}

/* ---- custom accounts: __check_auth ---------------------------------------------- */

/* The invoker stands in for the VM: it checks what __check_auth gets and
 * answers as told. */
typedef struct stub {
  int calls;
  uint8_t payload[32];
  uint32_t ncontexts;
  char fn[32];
  int answer;             /* SCP_OK: Void; else a contract error */
  bool delegation;        /* call the __check_auth-only functions */
  int signers_rc, delegate_rc;
  uint64_t signers, delegate_ret;
} stub;

static int stub_invoke(void *ctx, scp_host *h, const scp_invocation *inv, uint64_t *ret,
                       scp_error *err) {
  stub *s = ctx;
  s->calls++;
  snprintf(s->fn, sizeof s->fn, "%s", inv->fn);
  *ret = SCP_VAL_VOID;
  if (inv->nargs == 3) {
    const scp_hobj *p = scp_host_obj(h, inv->args[0]), *c = scp_host_obj(h, inv->args[2]);
    if (p && p->len == 32) memcpy(s->payload, p->u.bytes, 32);
    if (c) s->ncontexts = c->len;
  }
  if (s->delegation) {
    /* inside __check_auth's frame (the VM would push it) */
    scp_error e;
    scp_host_push_contract_frame(h, inv->id);
    scp_host_set_frame_fn(h, inv->fn);
    s->signers_rc = scp_host_call(h, fn("get_delegated_signers_for_current_auth_check"), NULL,
                                  NULL, &s->signers, &e);
    scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
    uint64_t who = 0;
    if ((o.u.bytes = calloc(1, 33)) && scp_host_add_obj(h, &o, &who) == SCP_OK)
      s->delegate_rc = scp_host_call(h, fn("delegate_account_auth"), &who, NULL,
                                     &s->delegate_ret, &e);
    scp_host_pop_frame(h);
  }
  if (s->answer == SCP_OK) return SCP_OK;
  return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)s->answer, "the account says no");
}

static uint64_t probe_cpu, probe_mem;
static void probe(scp_host *h) {
  probe_cpu = h->budget->cpu;
  probe_mem = h->budget->mem;
}

/* A custom account (contract `wallet`, deployed with a dummy code) signs
 * mint(user, 100) with AddressV2 credentials and a Bytes(64) signature, as
 * the SIMPLE_ACCOUNT_CONTRACT of test__stellar_asset_contract__test_
 * custom_account_auth.json.  Up to the __check_auth call the charges are
 * the trace's (steps 259 -> 281: 29,521 CPU / 6,552 B): the args' clone
 * 628 / 32 B, four compares 1,160, the payload with a contract address
 * (one write fewer than an account's) 20,839 / 5,708 B, its Bytes 971 /
 * 128 B, the contexts 4,913 / 464 B, the name's Symbol object
 * (symbol_new_from_slice(12)) 1,010 / 108 B. */
static delta custom_account(fixture *f, stub *st, uint8_t wallet[32]) {
  static const uint8_t code[8] = { 0, 'a', 's', 'm', 1, 0, 0, 0 }, zero[32];
  uint8_t salt[32] = { 7 }, user[32], cid[32];
  memset(user, USER, 32);
  memset(cid, SAC_ID, 32);
  assert_int_equal(scp_host_deploy(f->h, code, sizeof code, zero, salt, wallet), SCP_OK);
  scp_host_set_invoker(f->h, stub_invoke, st);
  sac_state(f, (const uint8_t *)"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01"
                                "\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01");
  xb inv = { .n = 0 }, e = { .n = 0 };
  invocation(&inv, cid, "mint", user);
  x32(&e, 2);
  xaddr(&e, 1, wallet);
  x64(&e, 99);
  x32(&e, 200);
  uint8_t sig[64];
  memset(sig, 0x5a, 64);
  x32(&e, 13);
  xvar(&e, sig, 64);
  xbytes(&e, inv.p, inv.n);
  set_entries(f, &e, 1);
  mint_frame(f);
  scp_auth_enf_probe = probe;
  delta d = require_auth(f, address_of(f, 1, wallet));
  scp_auth_enf_probe = NULL;
  return d;
}

static void test_check_auth_called(void **state) {
  fixture *f = *state;
  stub st = { .answer = SCP_OK };
  uint8_t wallet[32], user[32], cid[32];
  memset(user, USER, 32);
  memset(cid, SAC_ID, 32);
  delta d = custom_account(f, &st, wallet);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(st.calls, 1);
  assert_string_equal(st.fn, "__check_auth");
  assert_int_equal(st.ncontexts, 1);
  /* the payload __check_auth gets: SHA-256 of the WithAddress preimage */
  xb inv = { .n = 0 }, pre = { .n = 0 };
  invocation(&inv, cid, "mint", user);
  x32(&pre, 10);
  xbytes(&pre, f->h->opts.network_id, 32);
  x64(&pre, 99);
  x32(&pre, 200);
  xaddr(&pre, 1, wallet);
  xbytes(&pre, inv.p, inv.n);
  uint8_t hash[32];
  SHA256(pre.p, pre.n, hash);
  assert_memory_equal(st.payload, hash, 32);
  /* the 4 entries, the wallet's instance and code (read for the call),
   * the nonce */
  assert_int_equal(f->h->nstore, 7);
}

static void test_check_auth_charges(void **state) {
  fixture *f = *state;
  stub st = { .answer = SCP_OK };
  uint8_t wallet[32];
  delta d = custom_account(f, &st, wallet);
  assert_int_equal(d.rc, SCP_OK);
  uint64_t before_cpu = f->b.cpu - d.cpu, before_mem = f->b.mem - d.mem;
  assert_int_equal(probe_cpu - before_cpu, 64369 - 34848);
  assert_int_equal(probe_mem - before_mem, 12357 - 5805);
}

/* __check_auth failing (a contract error) fails the require_auth with
 * Error(Auth, InvalidAction); no nonce is written. */
static void test_check_auth_refuses(void **state) {
  fixture *f = *state;
  stub st = { .answer = 3 };
  uint8_t wallet[32];
  delta d = custom_account(f, &st, wallet);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  assert_int_equal(st.calls, 1);
  assert_int_equal(f->h->nstore, 6);   /* no nonce */
}

/* Inside __check_auth the delegation functions pass the frame check:
 * with no delegated signers (AddressV2 credentials) the list is a new
 * empty Vec and delegating is Error(Auth, InvalidInput). */
static void test_check_auth_delegation(void **state) {
  fixture *f = *state;
  stub st = { .answer = SCP_OK, .delegation = true };
  uint8_t wallet[32];
  delta d = custom_account(f, &st, wallet);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(st.signers_rc, SCP_OK);
  const scp_hobj *v = scp_host_obj(f->h, st.signers);
  assert_non_null(v);
  assert_int_equal(v->tag, SCP_TAG_VEC_OBJ);
  assert_int_equal(v->len, 0);
  assert_int_equal(st.delegate_rc, SCP_ERR_HOST);
  assert_int_equal(st.delegate_ret, scp_val_error(SCP_ET_AUTH, SCP_EC_INVALID_INPUT));
}

/* ---- authorize_as_curr_contract: invoker-contract trackers ---------------------- */

static int open_recording(void **state) {
  static const uint8_t zero[32];
  int rc = fixture_open(state, 0, 0, NULL, 64);
  if (rc == 0) rc = scp_host_set_base_prng_seed(((fixture *)*state)->h, zero);
  return rc;
}

/* A contract frame fill.fn(args) pushed as a VM frame is. */
static void contract_frame(fixture *f, uint8_t fill, const char *name, const uint64_t *args,
                           uint32_t n) {
  uint8_t id[32];
  memset(id, fill, 32);
  assert_int_equal(scp_host_charge_push_context(f->h, id), SCP_OK);
  assert_int_equal(scp_host_push_contract_frame(f->h, id), SCP_OK);
  assert_int_equal(scp_host_set_frame_fn(f->h, name), SCP_OK);
  assert_int_equal(scp_host_set_frame_args(f->h, args, n), SCP_OK);
}

/* InvokerContractAuthEntry::Contract(SubContractInvocation {context:
 * {args, contract, fn_name}, sub_invocations}) as a contract builds it. */
static uint64_t invoker_entry(fixture *f, uint8_t contract, const char *fn, const uint64_t *args,
                              uint32_t n, const uint64_t *subs, uint32_t nsubs) {
  uint8_t id[32];
  memset(id, contract, 32);
  uint64_t argv, subv, sym, ctx, sub, tag, entry;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, args, n, &argv), SCP_OK);
  assert_int_equal(scp_host_vec_new_from_slice(f->h, subs, nsubs, &subv), SCP_OK);
  assert_int_equal(scp_native_symbol(f->h, fn, &sym), SCP_OK);
  static const char *const ctx_keys[] = { "args", "contract", "fn_name" };
  uint64_t cv[3] = { argv, address_of(f, 1, id), sym };
  assert_int_equal(scp_native_map_new(f->h, ctx_keys, cv, 3, &ctx), SCP_OK);
  static const char *const sub_keys[] = { "context", "sub_invocations" };
  uint64_t sv[2] = { ctx, subv };
  assert_int_equal(scp_native_map_new(f->h, sub_keys, sv, 2, &sub), SCP_OK);
  assert_int_equal(scp_native_symbol(f->h, "Contract", &tag), SCP_OK);
  uint64_t pair[2] = { tag, sub };
  assert_int_equal(scp_host_vec_new_from_slice(f->h, pair, 2, &entry), SCP_OK);
  return entry;
}

static delta host_call(fixture *f, const char *name, const uint64_t *args) {
  uint64_t c0 = f->b.cpu, m0 = f->b.mem;
  scp_error err;
  delta d = { 0 };
  d.rc = scp_host_call(f->h, fn(name), args, &f->mem, &d.ret, &err);
  if (d.rc) print_message("%s: %s\n", name, err.msg);
  d.cpu = f->b.cpu - c0;
  d.mem = f->b.mem - m0;
  return d;
}

/* Contract A (0xa1) authorizes C.inner(7) for its sub-calls, calls B
 * (0xb2), which calls C (0xc3): C's require_auth(A) is authorized by A's
 * invoker tracker -- in recording mode too, with no account tracker (no
 * nonce).  Its charges: the argument's visit 60, the frame args' clone
 * (one Val: 523 / 24 B) and the name's 43, the direct invoker's compare
 * (B vs A) 290, the tracker's contract against the current one (A vs C)
 * 290 and against the address (A vs A) 290, the root's function (C's
 * address 290; "inner" and U32(7) compare free): 1,786 CPU / 24 B.  The
 * same frame asking again is no longer matched by the tracker (the
 * frame is matched already): a recording tracker is made.  When B
 * returns, the tracker is out of scope. */
static void test_invoker_authorizes_sub_call(void **state) {
  fixture *f = *state;
  uint8_t a_id[32];
  memset(a_id, 0xa1, 32);
  uint64_t seven = scp_val_u32(7);
  contract_frame(f, 0xa1, "outer", NULL, 0);
  uint64_t entry = invoker_entry(f, 0xc3, "inner", &seven, 1, NULL, 0), list;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &entry, 1, &list), SCP_OK);
  delta d = host_call(f, "authorize_as_curr_contract", &list);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(scp_auth_enf_invoker_count(f->h), 1);
  contract_frame(f, 0xb2, "middle", NULL, 0);
  contract_frame(f, 0xc3, "inner", &seven, 1);
  uint64_t a = address_of(f, 1, a_id);
  d = host_call(f, "require_auth", &a);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 60 + 523 + 43 + 290 + 290 + 290 + 290);
  assert_int_equal(d.mem, 24);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 0);
  d = host_call(f, "require_auth", &a);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(scp_auth_mgr_tracker_count(f->h), 1);
  scp_host_pop_frame(f->h);
  assert_int_equal(scp_auth_enf_invoker_count(f->h), 1);
  scp_host_pop_frame(f->h);
  assert_int_equal(scp_auth_enf_invoker_count(f->h), 0);
}

/* A tracker authorizes only calls below the contract that made it: A's
 * own require_auth(A) in a sub-call it makes directly is the direct
 * invoker's; a function not in the tree is not authorized (enforcing, no
 * entries: Error(Auth, InvalidAction)). */
static void test_invoker_other_function(void **state) {
  fixture *f = *state;
  f->h->opts.auth_enforcing = true;
  uint8_t a_id[32];
  memset(a_id, 0xa1, 32);
  uint64_t seven = scp_val_u32(7), eight = scp_val_u32(8);
  contract_frame(f, 0xa1, "outer", NULL, 0);
  uint64_t entry = invoker_entry(f, 0xc3, "inner", &seven, 1, NULL, 0), list;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &entry, 1, &list), SCP_OK);
  assert_int_equal(host_call(f, "authorize_as_curr_contract", &list).rc, SCP_OK);
  contract_frame(f, 0xb2, "middle", NULL, 0);
  contract_frame(f, 0xc3, "inner", &eight, 1);   /* inner(8): not authorized */
  uint64_t a = address_of(f, 1, a_id);
  delta d = host_call(f, "require_auth", &a);
  assert_error(d, SCP_ET_AUTH, SCP_EC_INVALID_ACTION);
  /* ... up to the args: U32(7) vs U32(8) compare free */
  assert_int_equal(d.cpu, 60 + 523 + 43 + 290 + 290 + 290 + 290);
}

/* authorize_as_curr_contract with one entry (C.inner(7), no
 * sub-invocations), 4,125 CPU / 424 B (no reference trace calls it with
 * entries; the pieces are the reference's rules with the env calls'
 * costs the SAC traces show): the argument check and the visit 2 x 60,
 * the entries' to_vec 523 / 24 B, the tracker Vec (bulk init of one 264:
 * 587 / 280 B), the contract id's clone 46; the entry's conversion:
 * vec_get of the discriminant 163 (as the asset contract's trace),
 * symbol_index_in_strs 134, vec_get of the Map 223, the two structs'
 * map_unpack_to_slice (2 and 3 keys) 723; the args' to_vec (visit 60,
 * 523 / 24 B), the sub-invocations' visit 60 and empty
 * Vec<AuthorizedInvocation> 521 / 16 B, the contract's address object
 * 442 / 80 B. */
static void test_invoker_entry_charges(void **state) {
  fixture *f = *state;
  uint64_t seven = scp_val_u32(7);
  contract_frame(f, 0xa1, "outer", NULL, 0);
  uint64_t entry = invoker_entry(f, 0xc3, "inner", &seven, 1, NULL, 0), list;
  assert_int_equal(scp_host_vec_new_from_slice(f->h, &entry, 1, &list), SCP_OK);
  delta d = host_call(f, "authorize_as_curr_contract", &list);
  assert_int_equal(d.rc, SCP_OK);
  assert_int_equal(d.cpu, 60 + 60 + 523 + 587 + 46 + 163 + 134 + 223 + 723 + 60 + 523 + 60 + 521 +
                              442);
  assert_int_equal(d.mem, 24 + 280 + 24 + 16 + 80);
  /* outside a contract frame (the host function's): no current contract */
  scp_host_pop_frame(f->h);
  d = host_call(f, "authorize_as_curr_contract", &list);
  assert_int_equal(d.rc, SCP_ERR_HOST);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_expired_v2, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_too_late_v1, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_success_v2, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_too_many_signatures, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_multisig_two_signers, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_unsorted_signers, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_below_threshold, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_signer_not_in_account, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_bad_signature, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_used_nonce, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_unmatched_function, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_entry_charges, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_rollback, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_check_auth_called, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_check_auth_charges, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_check_auth_refuses, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_check_auth_delegation, fixture_open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_invoker_authorizes_sub_call, open_recording,
                                    fixture_close),
    cmocka_unit_test_setup_teardown(test_invoker_other_function, open_recording, fixture_close),
    cmocka_unit_test_setup_teardown(test_invoker_entry_charges, open_recording, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
