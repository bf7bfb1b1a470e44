/*
 * host_auth_deleg.c — AddressWithDelegates credentials (protocol 27 on):
 * the tree of delegated signers an account's entry carries, matched when
 * its __check_auth calls delegate_account_auth, and listed by
 * get_delegated_signers_for_current_auth_check.  Reference:
 * rs-soroban-env v28.0.2 auth.rs (DelegatedAccountAuthSignerTreeNode,
 * DelegatedAccountAuthTracker); declared sizes: a tree node 48, its
 * snapshot 32, each in a Result with HostError 16.  No reference trace
 * covers delegation (only the dispatch check of delegate_account_auth's
 * argument); the numbers in tests/soroban/test_auth_deleg.c are worked
 * out from the rules each function states.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/auth/host_auth.h"

enum {
  SIZE_SCADDRESS = 48, SIZE_RESULT_VEC = 24 + 16, SIZE_RESULT_NODE = 48 + 16,
  SIZE_RESULT_NODE_SNAPSHOT = 32 + 16, SIZE_VEC = 24, SIZE_USIZE = 8, SIZE_VAL = 8,
  MAX_DEPTH = 64
};

typedef struct ad_node {
  uint64_t address;     /* AddressObject (0 for the root) */
  uint64_t signature;
  uint32_t parent;      /* the root's is 0 */
  uint32_t nkids;
  bool exhausted;
} ad_node;

struct scp_auth_deleg {
  ad_node *n;           /* pre-order, node 0 the root */
  size_t nn, capn;
  uint32_t *ms;         /* match stack: node indices */
  size_t nms, capms;
};

void scp_auth_deleg_free(scp_auth_deleg *d) {
  if (!d) return;
  free(d->n);
  free(d->ms);
  free(d);
}

static int bad(scp_host *h) {
  snprintf(h->errmsg, sizeof h->errmsg, "malformed SorobanAuthorizationEntry XDR");
  return SCP_ERR_MALFORMED;
}

/* The XDR, parsed first without charges: one item per delegate, in
 * pre-order. */
typedef struct ad_item {
  uint8_t addr[33];
  const uint8_t *sig;
  size_t siglen;
  uint32_t parent;      /* item index + 1; 0 the root */
  uint32_t nkids;
} ad_item;

typedef struct ad_parse {
  const uint8_t *p;
  size_t n, off;
  ad_item *it;
  size_t nit, cap;
} ad_parse;

/* An ScAddress into the host's 33-byte encoding. */
static bool xdr_address(ad_parse *x, uint8_t out[33]) {
  if (x->off + 36 > x->n) return false;
  uint32_t kind = scp_be32(x->p + x->off);
  if (kind == 0) {
    if (x->off + 40 > x->n || scp_be32(x->p + x->off + 4) != 0) return false;
    out[0] = 0;
    memcpy(out + 1, x->p + x->off + 8, 32);
    x->off += 40;
    return true;
  }
  if (kind != 1) return false;
  out[0] = 1;
  memcpy(out + 1, x->p + x->off + 4, 32);
  x->off += 36;
  return true;
}

/* VecM<SorobanDelegateSignature> of parent (0: the root). */
static bool parse_list(ad_parse *x, uint32_t parent, unsigned depth, uint32_t *count) {
  if (depth > MAX_DEPTH || x->off + 4 > x->n) return false;
  uint32_t cnt = scp_be32(x->p + x->off);
  x->off += 4;
  if (cnt > x->n) return false;
  *count = cnt;
  for (uint32_t i = 0; i < cnt; i++) {
    if (!scp_grow(&x->it, &x->cap, x->nit + 1, sizeof *x->it)) return false;
    size_t me = x->nit++;
    ad_item *t = &x->it[me];
    memset(t, 0, sizeof *t);
    t->parent = parent;
    if (!xdr_address(x, t->addr)) return false;
    /* bounded: the entry is untrusted (scp_storage_scval_len trusts its input) */
    size_t sl = x->off + 4 <= x->n ? scp_host_scval_xdr_len(x->p + x->off, x->n - x->off) : 0;
    if (!sl) return false;
    t->sig = x->p + x->off;
    t->siglen = sl;
    x->off += sl;
    uint32_t kids = 0;
    if (!parse_list(x, (uint32_t)me + 1, depth + 1, &kids)) return false;
    x->it[me].nkids = kids;
  }
  return true;
}

/* DelegatedAccountAuthSignerTreeNode::from_xdr of item k (0: the root,
 * else item k - 1) with its delegates, charged in the reference's order:
 * the adjacent delegates' addresses compared (Compare<ScAddress>:
 * MemCmp(48)) -- equal is Error(Auth, InvalidInput) "delegated signers
 * contain duplicate address", out of order "... are not in sorted order"
 * --; a nested node's address object (add_host_object) and signature
 * (to_host_val); then its delegates' metered_collect (MemCpy(40), MemAlloc
 * / MemCpy(64 n)) and each one in turn. */
static int node_from_xdr(scp_host *h, scp_auth_deleg *d, const ad_parse *x, uint32_t k, uint32_t parent) {
  /* the delegates' windows */
  const uint8_t *prev = NULL;
  for (size_t i = 0; i < x->nit; i++) {
    if (x->it[i].parent != k) continue;
    if (prev) {
      int rc = scp_host_charge(h, SCP_COST_MemCmp, SIZE_SCADDRESS);
      if (rc != SCP_OK) return rc;
      int o = memcmp(prev, x->it[i].addr, 33);
      if (!o)
        return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_INPUT,
                            "delegated signers contain duplicate address");
      if (o > 0)
        return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_INPUT,
                            "delegated signer addresses are not in sorted order");
    }
    prev = x->it[i].addr;
  }
  /* the node's info */
  if (!scp_grow(&d->n, &d->capn, d->nn + 1, sizeof *d->n)) return SCP_ERR_NOMEM;
  uint32_t me = (uint32_t)d->nn++;
  d->n[me] = (ad_node){ .parent = parent };
  if (k) {
    const ad_item *t = &x->it[k - 1];
    scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
    if (!(o.u.bytes = malloc(33))) return SCP_ERR_NOMEM;
    memcpy(o.u.bytes, t->addr, 33);
    uint64_t a = 0, s = 0;
    int rc = scp_host_add_obj(h, &o, &a);
    if (rc == SCP_OK) rc = scp_host_scval_to_val(h, t->sig, t->siglen, &s);
    if (rc != SCP_OK) return rc;
    d->n[me].address = a;
    d->n[me].signature = s;
  }
  /* the delegates' metered_collect, then each one */
  uint32_t kids = 0;
  for (size_t i = 0; i < x->nit; i++) kids += x->it[i].parent == k;
  d->n[me].nkids = kids;
  int rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, kids, SIZE_RESULT_NODE);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, kids, SIZE_RESULT_NODE);
  for (size_t i = 0; rc == SCP_OK && i < x->nit; i++)
    if (x->it[i].parent == k) rc = node_from_xdr(h, d, x, (uint32_t)i + 1, me);
  return rc;
}

int scp_auth_deleg_from_xdr(scp_host *h, const uint8_t *p, size_t n, size_t *used, scp_auth_deleg **out) {
  *out = NULL;
  ad_parse x = { .p = p, .n = n };
  uint32_t top = 0;
  if (!parse_list(&x, 0, 0, &top)) {
    free(x.it);
    return bad(h);
  }
  scp_auth_deleg *d = calloc(1, sizeof *d);
  int rc = d ? node_from_xdr(h, d, &x, 0, 0) : SCP_ERR_NOMEM;
  free(x.it);
  if (rc != SCP_OK) {
    scp_auth_deleg_free(d);
    return rc;
  }
  *used = x.off;
  *out = d;
  return SCP_OK;
}

/* ---- snapshots -------------------------------------------------------------------- */

/* snapshot: per node its delegates' collect (MemCpy(40), MemAlloc /
 * MemCpy(48 n)), then the match stack's clone (Vec<usize>::metered_clone:
 * MemCpy(24), MemAlloc / MemCpy(8 n)); rollback clones the saved match
 * stack again. */
int scp_auth_deleg_snapshot_charges(scp_host *h, const scp_auth_deleg *d) {
  int rc = SCP_OK;
  for (size_t k = 0; rc == SCP_OK && k < d->nn; k++) {
    rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
    if (rc == SCP_OK) rc = scp_host_charge_alloc(h, d->n[k].nkids, SIZE_RESULT_NODE_SNAPSHOT);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, d->n[k].nkids, SIZE_RESULT_NODE_SNAPSHOT);
  }
  /* match_stack.metered_clone */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, d->nms, SIZE_USIZE);
  return rc == SCP_OK ? scp_host_charge_copy(h, d->nms, SIZE_USIZE) : rc;
}

struct scp_auth_deleg_state {
  bool *exhausted;
  uint32_t *ms;
  size_t nms;
};

scp_auth_deleg_state *scp_auth_deleg_save(const scp_auth_deleg *d) {
  scp_auth_deleg_state *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  s->exhausted = calloc(d->nn + 1, sizeof *s->exhausted);
  s->ms = calloc(d->nms + 1, sizeof *s->ms);
  if (!s->exhausted || !s->ms) {
    scp_auth_deleg_state_free(s);
    return NULL;
  }
  for (size_t k = 0; k < d->nn; k++) s->exhausted[k] = d->n[k].exhausted;
  if (d->nms) memcpy(s->ms, d->ms, d->nms * sizeof *s->ms);
  s->nms = d->nms;
  return s;
}

void scp_auth_deleg_restore(scp_host *h, scp_auth_deleg *d, const scp_auth_deleg_state *s) {
  for (size_t k = 0; k < d->nn; k++) d->n[k].exhausted = s->exhausted[k];
  /* rollback: the saved match stack's metered_clone */
  (void)scp_host_charge_copy(h, 1, SIZE_VEC);
  (void)scp_host_charge_alloc(h, s->nms, SIZE_USIZE);
  (void)scp_host_charge_copy(h, s->nms, SIZE_USIZE);
  if (s->nms && s->nms <= d->capms) memcpy(d->ms, s->ms, s->nms * sizeof *d->ms);
  if (s->nms <= d->capms) d->nms = s->nms;
}

void scp_auth_deleg_state_free(scp_auth_deleg_state *s) {
  if (!s) return;
  free(s->exhausted);
  free(s->ms);
  free(s);
}

/* ---- delegation --------------------------------------------------------------------- */

/* get_currently_matched_delegated_signer_node: free. */
static uint32_t current(const scp_auth_deleg *d) { return d->nms ? d->ms[d->nms - 1] : 0; }

/* try_push_delegated_auth_frame: the current node's delegates' addresses
 * compared with the address (Compare<AddressObject>) up to the first
 * equal one. */
int scp_auth_deleg_push(scp_host *h, scp_auth_deleg *d, uint64_t address, uint64_t *signature) {
  uint32_t cur = current(d);
  for (size_t k = cur + 1; k < d->nn; k++) {
    if (d->n[k].parent != cur) continue;
    int ord = 1;
    int rc = scp_host_compare(h, d->n[k].address, address, &ord);
    if (rc != SCP_OK) return rc;
    if (ord) continue;
    if (d->n[k].exhausted)
      return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_INPUT,
                          "delegate_account_auth has already been called for address, but it may "
                          "only be called once");
    if (!scp_grow(&d->ms, &d->capms, d->nms + 1, sizeof *d->ms)) return SCP_ERR_NOMEM;
    d->n[k].exhausted = true;
    d->ms[d->nms++] = (uint32_t)k;
    *signature = d->n[k].signature;
    return SCP_OK;
  }
  return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_INPUT,
                      "delegated signer has not provided a signature");
}

void scp_auth_deleg_pop(scp_auth_deleg *d) {
  if (d->nms) d->nms--;
}

/* get_current_delegated_signer_addresses: a Vec<Val> rebuilt at each
 * push_back (metered_vector.rs: MemCpy(24), MemAlloc / MemCpy(8 k)), then
 * its object. */
int scp_auth_deleg_signers(scp_host *h, const scp_auth_deleg *d, uint64_t *out) {
  uint32_t cur = current(d), k = 0;
  uint64_t *v = calloc(d->nn + 1, sizeof *v);
  if (!v) return SCP_ERR_NOMEM;
  int rc = SCP_OK;
  for (size_t i = cur + 1; rc == SCP_OK && i < d->nn; i++) {
    if (d->n[i].parent != cur) continue;
    v[k++] = d->n[i].address;
    rc = scp_host_charge_bulk_init(h, k, SIZE_VAL);   /* push_back's new Vec */
  }
  scp_hobj o = { .tag = SCP_TAG_VEC_OBJ, .len = k };
  if (rc == SCP_OK) {
    o.u.vals = v;
    return scp_host_add_obj(h, &o, out);
  }
  free(v);
  return rc;
}
