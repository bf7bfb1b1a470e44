/*
 * sor_auth.c — the signed authorization entries of an enforcing-mode
 * profile (scp_soroban_opts.auth.enforce), built the way a wallet does
 * after simulation: from the recording run's trackers (their trees and
 * nonces), one SorobanAuthorizationEntry per address, its payload
 * (HashIdPreimage SorobanAuthorization[WithAddress], SHA-256) signed with
 * the ed25519 seeds given.
 *
 * Nothing here is charged: this is the transaction's preparation.  The
 * enforcing run charges what the host does with the entries
 * (host_auth_enf.c), in its own frame auth:entries.
 */
#include <openssl/sha.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/run/sor_auth.h"
#include "soroban/core/host_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/core/host_xdrw.h"
#include "soroban/run/scp_spec.h"

enum { ENVELOPE_AUTH = 9, ENVELOPE_AUTH_WITH_ADDRESS = 10, SCV_VOID = 1, SCV_BYTES = 13,
       SCV_SYMBOL = 15, SCV_VEC = 16, SCV_MAP = 17, MAX_SIGNERS = 20 };

/* The entries are built with host_xdrw.c's writer, uncharged (they are
 * the transaction's input, not host work); an allocation failure sticks,
 * so a whole entry is written before it is checked.  Every piece is a
 * whole number of XDR words: ScVal and authorized-function images, 32-
 * and 8-byte opaques; var pads its bytes. */
typedef struct xw {
  scp_xdrw x;
  bool oom;
} xw;

static void put(xw *w, const void *p, size_t n) {
  if (!w->oom && scp_xdrw_append(&w->x, p, n) != SCP_OK) w->oom = true;
}

static void u32(xw *w, uint32_t v) {
  if (!w->oom && scp_xdrw_u32(NULL, &w->x, v) != SCP_OK) w->oom = true;
}

static void var(xw *w, const void *p, size_t n) {
  if (!w->oom && scp_xdrw_var(NULL, &w->x, p, (uint32_t)n) != SCP_OK) w->oom = true;
}

static void address(xw *w, const uint8_t a[33]) {
  if (!w->oom && scp_xdrw_address(NULL, &w->x, a) != SCP_OK) w->oom = true;
}

void scp_authplan_free(scp_authplan *p) {
  for (size_t i = 0; i < p->n; i++) free(p->entries[i]);
  free(p->entries);
  free(p->lens);
  free(p->accounts);
  memset(p, 0, sizeof *p);
}

/* SorobanAuthorizedInvocation of node k of recording tracker ti. */
static int invocation(scp_host *h, size_t ti, const scp_auth_mgr_tinfo *t, size_t k, xw *w,
                      scp_error *err) {
  scp_auth_mgr_tnode n;
  scp_auth_mgr_tracker_node(h, ti, k, &n);
  if (!n.is_contract_fn) {
    /* SOROBAN_AUTHORIZED_FUNCTION_TYPE_CREATE_CONTRACT_V2_HOST_FN, as
     * recording mode's to_xdr writes it (host_auth_create.c) */
    uint8_t *img = NULL;
    size_t len = 0;
    int rc = scp_auth_create_xdr(h, n.create, false, &img, &len);
    if (rc != SCP_OK) return scp_fail(err, rc, "--auth enforce: a create-contract function");
    put(w, img, len);
    free(img);
  } else {
    const scp_hobj *c = scp_host_obj(h, n.contract);
    if (!c || c->tag != SCP_TAG_ADDRESS_OBJ) return scp_fail(err, SCP_ERR_INTERNAL, "bad contract");
    u32(w, 0);   /* SOROBAN_AUTHORIZED_FUNCTION_TYPE_CONTRACT_FN */
    address(w, c->u.bytes);
    var(w, n.fn, strlen(n.fn));
    u32(w, n.nargs);
    for (uint32_t i = 0; i < n.nargs; i++) {
      uint8_t *img = NULL;
      size_t len = 0;
      int rc = scp_host_val_to_xdr_raw(h, n.args[i], &img, &len);
      if (rc != SCP_OK) return scp_fail(err, rc, "--auth enforce: an argument has no XDR form");
      put(w, img, len);
      free(img);
    }
  }
  uint32_t nsub = 0;
  for (size_t j = k + 1; j < t->nnodes; j++) {
    scp_auth_mgr_tnode c2;
    scp_auth_mgr_tracker_node(h, ti, j, &c2);
    nsub += c2.parent == k;
  }
  u32(w, nsub);
  for (size_t j = k + 1; j < t->nnodes; j++) {
    scp_auth_mgr_tnode c2;
    scp_auth_mgr_tracker_node(h, ti, j, &c2);
    if (c2.parent != k) continue;
    int rc = invocation(h, ti, t, j, w, err);
    if (rc != SCP_OK) return rc;
  }
  return SCP_OK;
}

typedef struct keyed {
  uint8_t pk[32], sk[64];
} keyed;

static int cmp_keyed(const void *a, const void *b) {
  return memcmp(((const keyed *)a)->pk, ((const keyed *)b)->pk, 32);
}

/* The seeds given for address a (33 bytes): "S..." whose public key is
 * an account's own, "ADDR=S..." for any address. */
static int signers_for(const scp_soroban_opts *o, const uint8_t a[33], keyed *out, size_t *n,
                       scp_error *err) {
  *n = 0;
  for (size_t i = 0; i < o->auth.nsigners; i++) {
    const char *s = o->auth.signers[i], *eq = strchr(s, '=');
    uint8_t seed[32], key[32];
    unsigned kind = 0;
    if (eq) {
      char addr[64];
      size_t l = (size_t)(eq - s);
      if (l >= sizeof addr) return scp_fail(err, SCP_ERR_ARG, "--signer '%s': not ADDRESS=SEED", s);
      memcpy(addr, s, l);
      addr[l] = 0;
      if (!scp_address_strkey(addr, &kind, key))
        return scp_fail(err, SCP_ERR_ARG, "--signer '%s': '%s' is not a G... or C... strkey", s,
                        addr);
      if (!scp_seed_strkey(eq + 1, seed))
        return scp_fail(err, SCP_ERR_ARG, "--signer '%s': not a secret seed (S..., 56 characters)",
                        s);
      if (kind != a[0] || memcmp(key, a + 1, 32)) continue;
    } else if (!scp_seed_strkey(s, seed)) {
      return scp_fail(err, SCP_ERR_ARG, "--signer '%s': not a secret seed (S..., 56 characters)", s);
    }
    keyed k;
    crypto_sign_seed_keypair(k.pk, k.sk, seed);
    sodium_memzero(seed, sizeof seed);
    if (!eq && (a[0] != 0 || memcmp(k.pk, a + 1, 32))) continue;
    bool dup = false;
    for (size_t j = 0; j < *n; j++) dup |= !memcmp(out[j].pk, k.pk, 32);
    if (!dup && *n < MAX_SIGNERS) out[(*n)++] = k;
  }
  qsort(out, *n, sizeof *out, cmp_keyed);
  return SCP_OK;
}

/* A contract's signature Val given as "C...=TYPE:VALUE". */
static int given_signature(scp_host *h, const scp_soroban_opts *o, const uint8_t a[33], xw *w,
                           bool *found, scp_error *err) {
  *found = false;
  for (size_t i = 0; i < o->auth.nsignatures; i++) {
    const char *s = o->auth.signatures[i], *eq = strchr(s, '=');
    char addr[64];
    uint8_t key[32];
    unsigned kind;
    size_t l = eq ? (size_t)(eq - s) : 0;
    if (!eq || l >= sizeof addr)
      return scp_fail(err, SCP_ERR_ARG, "--auth-signature '%s': not C...=TYPE:VALUE", s);
    memcpy(addr, s, l);
    addr[l] = 0;
    if (!scp_address_strkey(addr, &kind, key) || kind != 1)
      return scp_fail(err, SCP_ERR_ARG, "--auth-signature '%s': '%s' is not a contract strkey", s,
                      addr);
    if (a[0] != 1 || memcmp(key, a + 1, 32)) continue;
    scp_arg arg;
    uint64_t v;
    int rc = scp_arg_parse(eq + 1, &arg, err);
    if (rc == SCP_OK) rc = scp_host_args_to_vals(h, &arg, 1, &v, err);
    if (rc != SCP_OK) {
      scp_error_prefix(err, "--auth-signature");
      return rc;
    }
    uint8_t *img = NULL;
    size_t len = 0;
    rc = scp_host_val_to_xdr_raw(h, v, &img, &len);
    if (rc != SCP_OK) return scp_fail(err, rc, "--auth-signature '%s': no XDR form", s);
    put(w, img, len);
    free(img);
    *found = true;
    return SCP_OK;
  }
  return SCP_OK;
}

/* Vec[Map{public_key: Bytes, signature: Bytes}] over hash, keys sorted. */
static void signature_vec(xw *w, const keyed *k, size_t n, const uint8_t hash[32]) {
  u32(w, SCV_VEC);
  u32(w, 1);
  u32(w, (uint32_t)n);
  for (size_t i = 0; i < n; i++) {
    uint8_t sig[64];
    crypto_sign_detached(sig, NULL, hash, 32, k[i].sk);
    u32(w, SCV_MAP);
    u32(w, 1);
    u32(w, 2);
    u32(w, SCV_SYMBOL);
    var(w, "public_key", 10);
    u32(w, SCV_BYTES);
    var(w, k[i].pk, 32);
    u32(w, SCV_SYMBOL);
    var(w, "signature", 9);
    u32(w, SCV_BYTES);
    var(w, sig, 64);
  }
}

static int add_entry(scp_authplan *p, xw *w) {
  if (w->oom || !scp_grow(&p->entries, &p->cap, p->n + 1, sizeof *p->entries)) return SCP_ERR_NOMEM;
  size_t *l = realloc(p->lens, (p->n + 1) * sizeof *l);
  if (!l) return SCP_ERR_NOMEM;
  p->lens = l;
  p->entries[p->n] = w->x.p;
  p->lens[p->n++] = w->x.n;
  w->x.p = NULL;
  return SCP_OK;
}

int scp_authplan_collect(scp_host *h, const scp_soroban_opts *o, scp_authplan *p, scp_error *err) {
  if (sodium_init() < 0) return scp_fail(err, SCP_ERR_INTERNAL, "libsodium did not initialise");
  uint32_t proto = h->opts.protocol;
  bool v2 = !proto || proto >= 27;   /* 0: the newest */
  uint32_t exp = o->auth.expiration ? o->auth.expiration : h->opts.ledger_sequence + 100;
  scp_auth_mgr_tinfo t;
  int rc = SCP_OK;
  for (size_t i = 0; rc == SCP_OK && scp_auth_mgr_tracker_info(h, i, &t); i++) {
    xw inv = { 0 }, e = { 0 };
    rc = invocation(h, i, &t, 0, &inv, err);
    if (rc == SCP_OK && inv.oom) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    if (rc == SCP_OK && t.source) {
      u32(&e, 0);   /* SOROBAN_CREDENTIALS_SOURCE_ACCOUNT */
    } else if (rc == SCP_OK) {
      const scp_hobj *a = scp_host_obj(h, t.address);
      uint8_t addr[33];
      memcpy(addr, a->u.bytes, 33);
      /* the payload */
      xw pre = { 0 };
      uint8_t n8[8], hash[32];
      scp_put_be64(n8, (uint64_t)t.nonce);
      u32(&pre, v2 ? ENVELOPE_AUTH_WITH_ADDRESS : ENVELOPE_AUTH);
      put(&pre, h->opts.network_id, 32);
      put(&pre, n8, 8);
      u32(&pre, exp);
      if (v2) address(&pre, addr);
      put(&pre, inv.x.p, inv.x.n);
      if (pre.oom) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
      else SHA256(pre.x.p, pre.x.n, hash);
      free(pre.x.p);
      /* the credentials */
      u32(&e, v2 ? 2 : 1);
      address(&e, addr);
      put(&e, n8, 8);
      u32(&e, exp);
      keyed k[MAX_SIGNERS];
      size_t nk = 0;
      bool given = false;
      if (rc == SCP_OK) rc = signers_for(o, addr, k, &nk, err);
      if (rc == SCP_OK && !nk && addr[0] == 1) rc = given_signature(h, o, addr, &e, &given, err);
      if (rc == SCP_OK && nk) {
        signature_vec(&e, k, nk, hash);
      } else if (rc == SCP_OK && !given && addr[0] == 0) {
        char sk[57];
        scp_host_address_strkey(addr, sk);
        rc = scp_fail(err, SCP_ERR_ARG,
                      "--auth enforce: %s must authorize the call; give its secret seed with "
                      "--signer S...", sk);
      } else if (rc == SCP_OK && !given) {
        u32(&e, SCV_VOID);
      }
      sodium_memzero(k, sizeof k);
      if (rc == SCP_OK && addr[0] == 0) {
        uint8_t(*acc)[32] = realloc(p->accounts, (p->naccounts + 1) * sizeof *acc);
        if (!acc) rc = SCP_ERR_NOMEM;
        else {
          p->accounts = acc;
          memcpy(acc[p->naccounts++], addr + 1, 32);
        }
      }
    }
    if (rc == SCP_OK) put(&e, inv.x.p, inv.x.n);
    if (rc == SCP_OK) rc = add_entry(p, &e);
    if (rc == SCP_ERR_NOMEM && !err->msg[0]) scp_fail(err, rc, "out of memory");
    free(inv.x.p);
    free(e.x.p);
  }
  return rc;
}

int scp_authplan_recorded_size(scp_host *h, uint64_t *bytes, uint32_t *n, scp_error *err) {
  scp_auth_mgr_tinfo t;
  *bytes = 0;
  *n = 0;
  for (size_t i = 0; scp_auth_mgr_tracker_info(h, i, &t); i++) {
    xw inv = { 0 };
    int rc = invocation(h, i, &t, 0, &inv, err);
    if (rc == SCP_OK && inv.oom) rc = scp_fail(err, SCP_ERR_NOMEM, "out of memory");
    free(inv.x.p);
    if (rc != SCP_OK) return rc;
    /* SourceAccount: the tag; Address(V2): tag, ScAddress, nonce,
     * expiration ledger, ScVal::Void */
    uint64_t cred = 4;
    if (!t.source) {
      const scp_hobj *a = scp_host_obj(h, t.address);
      cred += (a && a->u.bytes[0] == 0 ? 40 : 36) + 8 + 4 + 4;
    }
    *bytes += cred + inv.x.n;
    (*n)++;
  }
  return SCP_OK;
}

static bool has_account(const scp_host *h, const uint8_t key[32]) {
  for (size_t i = 0; i < h->nstore; i++)
    if (h->store[i].k.type == SCP_LK_ACCOUNT && !memcmp(h->store[i].k.id, key, 32)) return true;
  for (size_t i = 0; i < h->nsnap; i++)
    if (h->snap[i].k.type == SCP_LK_ACCOUNT && !memcmp(h->snap[i].k.id, key, 32)) return true;
  return false;
}

int scp_authplan_seed_accounts(scp_host *h, const scp_authplan *p, scp_error *err) {
  for (size_t i = 0; i < p->naccounts; i++) {
    if (has_account(h, p->accounts[i])) continue;
    /* AccountEntry: the key, balance 0, seqNum 0, no sub-entries, no
     * inflation destination, flags 0, no home domain, thresholds
     * {master 1, low 0, med 0, high 0}, no signers, ext v0 */
    uint8_t img[80] = { 0 };
    memcpy(img + 4, p->accounts[i], 32);
    img[68] = 1;
    scp_lkey k = { .type = SCP_LK_ACCOUNT };
    memcpy(k.id, p->accounts[i], 32);
    int rc = scp_storage_seed(h, &k, img, sizeof img, 0, false);
    if (rc != SCP_OK) return scp_fail(err, rc, "out of memory");
  }
  return SCP_OK;
}

int scp_authplan_apply(scp_host *h, const scp_authplan *p, scp_error *err) {
  return scp_host_set_auth_entries(h, (const uint8_t *const *)p->entries, p->lens, p->n, err);
}
