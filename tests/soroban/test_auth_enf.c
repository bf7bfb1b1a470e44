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

#include "soroban/host_private.h"
#include "soroban/host_lifecycle.h"
#include "host_fixture.h"

/* The reference's test ledger: sequence 123, max entry TTL 6,312,000. */
static int open_ledger(void **state) {
  scp_host_opts o = { .ledger_sequence = 123, .max_entry_ttl = 6312000, .auth_enforcing = true };
  return fixture_open(state, 0, 0, &o, 64);
}

/* ---- XDR, written by hand (an independent check of the host's) ------------------ */

typedef struct xb {
  uint8_t p[2048];
  size_t n;
} xb;

static void x32(xb *b, uint32_t v) {
  for (int i = 0; i < 4; i++) b->p[b->n++] = (uint8_t)(v >> (24 - 8 * i));
}
static void x64(xb *b, uint64_t v) {
  x32(b, (uint32_t)(v >> 32));
  x32(b, (uint32_t)v);
}
static void xbytes(xb *b, const void *p, size_t n) {
  memcpy(b->p + b->n, p, n);
  b->n += n;
  while (b->n % 4) b->p[b->n++] = 0;
}
static void xvar(xb *b, const void *p, size_t n) {
  x32(b, (uint32_t)n);
  xbytes(b, p, n);
}
static void xaddr(xb *b, unsigned kind, const uint8_t id[32]) {
  x32(b, kind);
  if (!kind) x32(b, 0);
  xbytes(b, id, 32);
}

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

/* A signed entry: cred 1 (Address) or 2 (AddressV2). */
static void signed_entry(xb *e, const signer *s, int cred, int64_t nonce, uint32_t exp,
                         const uint8_t cid[32], const char *fn, const uint8_t user[32],
                         const uint8_t network[32]) {
  xb inv = { .n = 0 }, pre = { .n = 0 };
  invocation(&inv, cid, fn, user);
  x32(&pre, cred == 2 ? 10 : 9);
  xbytes(&pre, network, 32);
  x64(&pre, (uint64_t)nonce);
  x32(&pre, exp);
  if (cred == 2) xaddr(&pre, 0, s->pk);
  xbytes(&pre, inv.p, inv.n);
  uint8_t hash[32], sig[64];
  SHA256(pre.p, pre.n, hash);
  crypto_sign_detached(sig, NULL, hash, 32, s->sk);
  e->n = 0;
  x32(e, (uint32_t)cred);
  xaddr(e, 0, s->pk);
  x64(e, (uint64_t)nonce);
  x32(e, exp);
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

/* One mint entry signed by a fresh issuer; the admin's require_auth. */
static delta mint_with(fixture *f, int cred, uint32_t exp, signer *s) {
  uint8_t cid[32], user[32];
  memset(cid, SAC_ID, 32);
  memset(user, USER, 32);
  signer_from_seed(s, 1);
  assert_true(s->pk[0] < USER);   /* sorts before the user, as the trace's issuer */
  sac_state(f, s->pk);
  xb e;
  signed_entry(&e, s, cred, 12345, exp, cid, "mint", user, f->h->opts.network_id);
  set_entries(f, &e, 1);
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

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_expired_v2, open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_too_late_v1, open_ledger, fixture_close),
    cmocka_unit_test_setup_teardown(test_success_v2, open_ledger, fixture_close),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
