/*
 * host_auth_enf.c — enforcing-mode authorization: the account trackers
 * made from signed SorobanAuthorizationEntry XDR, require_auth matched
 * against their trees, authentication (ed25519 signatures or a contract's
 * __check_auth), nonces and snapshots; and the invoker-contract trackers
 * of authorize_as_curr_contract (both modes), which share the matching.
 * Reference: rs-soroban-env v28.0.2 auth.rs (AuthorizationManager,
 * AccountAuthorizationTracker, InvocationTracker); each function names the
 * part it follows.  Checked against the reference's traces in
 * test_auth_enf.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/fns/host_native.h"
#include "soroban/core/host_account.h"

enum {
  SIZE_TRACKER_CELL = 320 + 8,   /* RefCell<AccountAuthorizationTracker> */
  SIZE_RESULT_VEC = 24 + 16,
  SIZE_RESULT_INVOCATION = 208 + 16,   /* Result<AuthorizedInvocation, HostError> */
  SIZE_RESULT_SNAPSHOT = 32 + 16,      /* Result<AuthorizedInvocationSnapshot, HostError> */
  SIZE_RESULT_VAL = 8 + 16, SIZE_USIZE = 8, SIZE_ACCOUNT_ID = 32,
  CRED_SOURCE = 0, CRED_ADDRESS = 1, CRED_ADDRESS_V2 = 2, CRED_DELEGATES = 3
};

/* A node of an entry's tree, in pre-order (node 0 the root). */
typedef struct ae_node {
  uint64_t contract;    /* AddressObject; 0: a create-contract function */
  uint64_t fnsym;       /* the name's Symbol */
  char fn[33];
  uint64_t *args;
  uint32_t nargs, parent;
  scp_create_args *create;   /* CreateContractHostFn (owned) */
  bool exhausted;
} ae_node;

typedef struct ae_tracker {
  uint64_t address, signature;
  int cred;             /* CRED_* */
  int64_t nonce;
  uint32_t live_until;
  ae_node *nodes;
  size_t nnodes;
  uint32_t *ms;         /* match stack: 0 unmatched, else node + 1 */
  size_t nms, capms;
  long root_frame;      /* root_exhausted_frame, -1 = None */
  bool done;            /* is_fully_processed */
  bool verified;
  bool borrowed;        /* being authenticated (RefCell borrowed) */
  scp_auth_deleg *deleg;        /* AddressWithDelegates: the delegated signers */
} ae_tracker;

/* An AuthenticationFrame: the tracker authenticated, its payload and
 * context (what delegate_account_auth hands to the delegates). */
typedef struct ae_auth_frame {
  size_t tracker;
  uint64_t payload, ctx;
} ae_auth_frame;

typedef struct scp_auth_enf {
  ae_tracker *tr;       /* account trackers (entries) */
  size_t ntr;
  ae_tracker *inv;      /* invoker-contract trackers (authorize_as_curr_contract;
                           address = the invoking contract), a stack */
  size_t ninv, capinv;
  unsigned authenticating;   /* trackers being authenticated */
  ae_auth_frame *astack;     /* the authentication stack */
  size_t nastack, capastack;
} scp_auth_enf;

struct scp_auth_enf_snap {
  size_t ntr;
  scp_auth_deleg_state **deleg; /* per tracker with delegates, when taken */
  bool *taken;          /* per tracker: a snapshot was taken (not borrowed) */
  bool *verified;
  bool **exhausted;     /* per tracker, per node */
  size_t ninv;
  bool **inv_exhausted; /* per invoker tracker, per node */
};

void (*scp_auth_enf_probe)(scp_host *h);

static int unsupported(scp_host *h, const char *what) {
  snprintf(h->errmsg, sizeof h->errmsg, "enforcing auth: %s is not implemented yet", what);
  return SCP_ERR_UNSUPPORTED;
}

size_t scp_auth_enf_count(const scp_host *h) { return h->ae ? h->ae->ntr : 0; }
bool scp_auth_enf_authenticating(const scp_host *h) { return h->ae && h->ae->authenticating; }

static void tracker_free(ae_tracker *t) {
  scp_auth_deleg_free(t->deleg);
  for (size_t k = 0; k < t->nnodes; k++) {
    free(t->nodes[k].args);
    scp_auth_create_free(t->nodes[k].create);
  }
  free(t->nodes);
  free(t->ms);
}

void scp_auth_enf_free(scp_host *h) {
  if (!h->ae) return;
  for (size_t i = 0; i < h->ae->ntr; i++) tracker_free(&h->ae->tr[i]);
  for (size_t i = 0; i < h->ae->ninv; i++) tracker_free(&h->ae->inv[i]);
  free(h->ae->inv);
  free(h->ae->tr);
  free(h->ae->astack);
  free(h->ae);
  h->ae = NULL;
}

/* ---- entries from XDR ----------------------------------------------------------- */

typedef struct rd {
  const uint8_t *p;
  size_t n, off;
  bool bad;
} rd;

static uint32_t rd_u32(rd *r) {
  if (r->off + 4 > r->n) {
    r->bad = true;
    return 0;
  }
  uint32_t v = scp_be32(r->p + r->off);
  r->off += 4;
  return v;
}

static const uint8_t *rd_bytes(rd *r, size_t len) {
  if (r->off + len > r->n || r->off + len < r->off) {
    r->bad = true;
    return NULL;
  }
  const uint8_t *q = r->p + r->off;
  r->off += (len + 3) & ~(size_t)3;
  if (r->off > r->n) r->bad = true;
  return q;
}

/* An ScAddress into the host's 33-byte encoding. */
static bool rd_address(rd *r, uint8_t out[33]) {
  uint32_t kind = rd_u32(r);
  if (kind == 0 && rd_u32(r) != 0) r->bad = true;   /* PUBLIC_KEY_TYPE_ED25519 */
  if (kind > 1) r->bad = true;
  const uint8_t *k = rd_bytes(r, 32);
  if (r->bad) return false;
  out[0] = (uint8_t)kind;
  memcpy(out + 1, k, 32);
  return true;
}

/* An ScVal image at the reader: its length, checked against the end. */
static const uint8_t *rd_scval(rd *r, size_t *len) {
  if (r->off + 4 > r->n) {
    r->bad = true;
    return NULL;
  }
  const uint8_t *q = r->p + r->off;
  size_t l = scp_host_scval_xdr_len(q, r->n - r->off);   /* bounded: the entry is untrusted */
  if (!l) {
    r->bad = true;
    return NULL;
  }
  r->off += l;
  *len = l;
  return q;
}

static int malformed(scp_host *h) {
  snprintf(h->errmsg, sizeof h->errmsg, "malformed SorobanAuthorizationEntry XDR");
  return SCP_ERR_MALFORMED;
}

static int new_address(scp_host *h, const uint8_t enc[33], uint64_t *out) {
  scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
  if (!(o.u.bytes = malloc(33))) return SCP_ERR_NOMEM;
  memcpy(o.u.bytes, enc, 33);
  return scp_host_add_obj(h, &o, out);
}

static int invocation_from_xdr(scp_host *h, ae_tracker *t, rd *r, uint32_t parent, size_t *cap,
                               unsigned depth);

/* The sub-invocations of node me: their metered_collect, then each one's
 * from_xdr. */
static int sub_invocations(scp_host *h, ae_tracker *t, rd *r, uint32_t me, size_t *cap,
                           unsigned depth) {
  uint32_t nsub = rd_u32(r);
  if (r->bad || nsub > r->n) return malformed(h);
  int rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, nsub, SIZE_RESULT_INVOCATION);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, nsub, SIZE_RESULT_INVOCATION);
  for (uint32_t i = 0; rc == SCP_OK && i < nsub; i++)
    rc = invocation_from_xdr(h, t, r, me, cap, depth + 1);
  return rc;
}

/* CreateContractArgs[V2] at the reader (AuthorizedFunction::from_xdr
 * moves the XDR: nothing charged; V1 has no constructor args): a
 * FROM_ADDRESS preimage (an asset preimage is not modelled), the
 * executable, the args' ScVals (kept as Vals made uncharged: the
 * reference keeps the XDR and converts where it uses them). */
static int create_from_xdr(scp_host *h, ae_tracker *t, rd *r, bool v2, uint32_t parent,
                           size_t *cap, unsigned depth) {
  scp_create_args c = { .nctor = 0 };
  uint32_t pre = rd_u32(r);
  if (r->bad) return malformed(h);
  if (pre != 0) return unsupported(h, "an asset preimage in a create-contract authorization");
  if (!rd_address(r, c.deployer)) return malformed(h);
  const uint8_t *salt = rd_bytes(r, 32);
  c.ex.kind = (uint8_t)rd_u32(r);
  if (r->bad || c.ex.kind > SCP_EXEC_EXTERNAL_REF) return malformed(h);
  memcpy(c.salt, salt, 32);
  if (c.ex.kind == SCP_EXEC_WASM) {
    const uint8_t *hash = rd_bytes(r, 32);
    if (r->bad) return malformed(h);
    memcpy(c.ex.hash, hash, 32);
  } else if (c.ex.kind == SCP_EXEC_EXTERNAL_REF) {
    if (!rd_address(r, c.ex.owner)) return malformed(h);
    c.ex.taglen = rd_u32(r);
    const uint8_t *tag = c.ex.taglen <= SCP_EXEC_TAG_MAX ? rd_bytes(r, c.ex.taglen) : NULL;
    if (r->bad || !tag) return malformed(h);
    memcpy(c.ex.tag, tag, c.ex.taglen);
  }
  uint32_t n = v2 ? rd_u32(r) : 0;
  if (r->bad || n > r->n) return malformed(h);
  scp_create_args *own = NULL;
  uint64_t *ctor = calloc(n + 1, sizeof *ctor);
  int rc = ctor ? SCP_OK : SCP_ERR_NOMEM;
  scp_budget *real = h->budget, shadow;
  scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
  h->budget = &shadow;
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++) {
    size_t l = 0;
    const uint8_t *img = rd_scval(r, &l);
    rc = img ? scp_host_scval_to_val(h, img, l, &ctor[i]) : malformed(h);
  }
  h->budget = real;
  c.ctor = ctor;
  c.nctor = n;
  if (rc == SCP_OK && !(own = scp_auth_create_dup(&c))) rc = SCP_ERR_NOMEM;
  free(ctor);
  if (rc == SCP_OK && !scp_grow(&t->nodes, cap, t->nnodes + 1, sizeof *t->nodes))
    rc = SCP_ERR_NOMEM;
  if (rc != SCP_OK) {
    scp_auth_create_free(own);
    return rc;
  }
  uint32_t me = (uint32_t)t->nnodes++;
  t->nodes[me] = (ae_node){ .parent = parent, .create = own };
  return sub_invocations(h, t, r, me, cap, depth);
}

/* AuthorizedInvocation::from_xdr of the invocation at the reader, parent
 * node `parent`: the sub-invocations' collect and conversions first (in
 * the XDR they follow the function, so the function is parsed, then
 * converted after its subtree), then AuthorizedFunction::from_xdr. */
static int invocation_from_xdr(scp_host *h, ae_tracker *t, rd *r, uint32_t parent, size_t *cap,
                               unsigned depth) {
  if (depth > 64) return malformed(h);
  uint32_t kind = rd_u32(r);   /* SorobanAuthorizedFunctionType */
  if (r->bad || kind > 2) return malformed(h);
  if (kind) return create_from_xdr(h, t, r, kind == 2, parent, cap, depth);
  uint8_t contract[33];
  if (!rd_address(r, contract)) return malformed(h);
  uint32_t fl = rd_u32(r);
  const uint8_t *fn = fl <= 32 ? rd_bytes(r, fl) : NULL;
  if (r->bad || !fn) return malformed(h);
  uint32_t nargs = rd_u32(r);
  if (r->bad || nargs > r->n) return malformed(h);
  const uint8_t **img = calloc(nargs + 1, sizeof *img);
  size_t *imglen = calloc(nargs + 1, sizeof *imglen);
  if (!img || !imglen) {
    free(img);
    free(imglen);
    return SCP_ERR_NOMEM;
  }
  for (uint32_t i = 0; i < nargs && !r->bad; i++) img[i] = rd_scval(r, &imglen[i]);
  /* this node, then its subtree */
  int rc = SCP_OK;
  if (r->bad) rc = malformed(h);
  if (rc == SCP_OK && !scp_grow(&t->nodes, cap, t->nnodes + 1, sizeof *t->nodes)) rc = SCP_ERR_NOMEM;
  uint32_t me = (uint32_t)t->nnodes;
  if (rc == SCP_OK) {
    t->nodes[me] = (ae_node){ .parent = parent, .nargs = nargs };
    memcpy(t->nodes[me].fn, fn, fl);
    t->nodes[me].fn[fl] = 0;
    t->nnodes++;
  }
  /* sub_invocations' metered_collect, then each one's from_xdr */
  if (rc == SCP_OK) rc = sub_invocations(h, t, r, me, cap, depth);
  /* AuthorizedFunction::from_xdr: add_host_object(ScAddress),
   * Symbol::try_from_val(ScSymbol), scvals_to_val_vec */
  ae_node *nd = rc == SCP_OK ? &t->nodes[me] : NULL;
  if (rc == SCP_OK) rc = new_address(h, contract, &nd->contract);
  if (rc == SCP_OK && !scp_val_symbol_small((const uint8_t *)nd->fn, fl, &nd->fnsym))
    rc = scp_host_memobj_new_from_slice(h, SCP_TAG_SYMBOL_OBJ, (const uint8_t *)nd->fn, fl,
                                        &nd->fnsym);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, nargs, SIZE_RESULT_VAL);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, nargs, SIZE_RESULT_VAL);
  if (rc == SCP_OK && !(nd->args = calloc(nargs + 1, sizeof *nd->args))) rc = SCP_ERR_NOMEM;
  for (uint32_t i = 0; rc == SCP_OK && i < nargs; i++)
    rc = scp_host_scval_to_val(h, img[i], imglen[i], &nd->args[i]);
  free(img);
  free(imglen);
  return rc;
}

/* The transaction's source account as an address object
 * (source_account_address: the AccountId clone, add_host_object). */
static int source_address(scp_host *h, uint64_t *out) {
  if (!h->opts.has_source_account)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INTERNAL_ERROR,
                        "source account is missing when setting auth entries");
  uint8_t enc[33] = { 0 };
  memcpy(enc + 1, h->opts.source_account, 32);
  int rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
  return rc == SCP_OK ? new_address(h, enc, out) : rc;
}

/* AccountAuthorizationTracker::from_authorization_entry. */
static int tracker_from_entry(scp_host *h, const uint8_t *p, size_t n, ae_tracker *t) {
  rd r = { .p = p, .n = n, .off = 0, .bad = false };
  *t = (ae_tracker){ .root_frame = -1 };
  t->cred = (int)rd_u32(&r);
  if (r.bad || t->cred > CRED_DELEGATES) return malformed(h);
  int rc = SCP_OK;
  t->signature = SCP_VAL_VOID;
  if (t->cred == CRED_SOURCE) {
    rc = source_address(h, &t->address);
  } else {
    uint8_t addr[33];
    if (!rd_address(&r, addr)) return malformed(h);
    uint32_t hi = rd_u32(&r), lo = rd_u32(&r);
    t->nonce = (int64_t)((uint64_t)hi << 32 | lo);
    t->live_until = rd_u32(&r);
    size_t sl = 0;
    const uint8_t *sig = rd_scval(&r, &sl);
    if (r.bad) return malformed(h);
    rc = new_address(h, addr, &t->address);
    if (rc == SCP_OK) rc = scp_host_scval_to_val(h, sig, sl, &t->signature);
    /* AddressWithDelegates: the delegates' tree (host_auth_deleg.c) */
    size_t used = 0;
    if (rc == SCP_OK && t->cred == CRED_DELEGATES &&
        (rc = scp_auth_deleg_from_xdr(h, r.p + r.off, r.n - r.off, &used, &t->deleg)) == SCP_OK)
      r.off += used;
  }
  size_t cap = 0;
  if (rc == SCP_OK) rc = invocation_from_xdr(h, t, &r, 0, &cap, 0);
  if (rc == SCP_OK && r.off != n) rc = malformed(h);
  return rc;
}

/* AuthorizationManager::new_enforcing (AccountAuthorizationTracker::
 * from_authorization_entry, InvocationTracker::from_xdr,
 * AuthorizedInvocation::from_xdr, AuthorizedFunction::from_xdr).
 * Charged (declared sizes from declared_size.rs): the tracker Vec with
 * capacity n (bulk init of n x 328); per entry the address object
 * (add_host_object; SourceAccount: source_account_address), the
 * signature's to_host_val, then the tree's from_xdr -- per node its
 * sub-invocations' metered_collect (Result<AuthorizedInvocation> 224
 * each) before its function: the contract's address object, the name (a
 * Symbol object when over 9 characters), scvals_to_val_vec.
 * Create-contract functions (CreateContractHostFn, CreateContractV2HostFn)
 * are kept as their args, compared as Compare<CreateContractArgsV2>
 * against a create-contract frame's (host_auth_create.c), hashed and
 * given to __check_auth as their contexts.  AddressWithDelegates
 * credentials carry the delegated signers (host_auth_deleg.c). */
int scp_host_set_auth_entries(scp_host *h, const uint8_t *const *entries, const size_t *lens,
                              size_t n, scp_error *err) {
  h->errmsg[0] = 0;
  scp_auth_enf_free(h);   /* a new manager (before the invocation: no invoker trackers) */
  h->opts.auth_enforcing = true;
  scp_auth_enf *e = calloc(1, sizeof *e);
  if (!e || !(e->tr = calloc(n + 1, sizeof *e->tr))) {
    free(e);
    return scp_fail(err, SCP_ERR_NOMEM, "out of memory");
  }
  h->ae = e;
  int rc = scp_host_charge_bulk_init(h, n, SIZE_TRACKER_CELL);   /* with_metered_capacity */
  for (size_t i = 0; rc == SCP_OK && i < n; i++) {
    rc = tracker_from_entry(h, entries[i], lens[i], &e->tr[i]);
    e->ntr++;
  }
  if (rc != SCP_OK) {
    scp_fail(err, rc, "%s", h->errmsg[0] ? h->errmsg : "setting authorization entries failed");
    scp_auth_enf_free(h);
  }
  return rc;
}

/* ---- frames, snapshots ------------------------------------------------------------ */

static int push_one(scp_host *h, ae_tracker *t) {
  int rc = scp_host_charge_bulk_init(h, 1, SIZE_USIZE);
  if (rc != SCP_OK) return rc;
  if (!scp_grow(&t->ms, &t->capms, t->nms + 1, sizeof *t->ms)) return SCP_ERR_NOMEM;
  t->ms[t->nms++] = 0;
  return SCP_OK;
}

static void pop_one(ae_tracker *t) {
  if (t->nms) t->nms--;
  if (t->root_frame >= 0 && (size_t)t->root_frame >= t->nms) t->done = true;
}

/* push_tracker_frame: the account trackers not being authenticated, then
 * every invoker-contract tracker; each gets a match-stack entry (bulk
 * init of one usize). */
int scp_auth_enf_push_frame(scp_host *h) {
  for (size_t i = 0; h->ae && i < h->ae->ntr; i++) {
    if (h->ae->tr[i].borrowed) continue;
    int rc = push_one(h, &h->ae->tr[i]);
    if (rc != SCP_OK) return rc;
  }
  for (size_t i = 0; h->ae && i < h->ae->ninv; i++) {
    int rc = push_one(h, &h->ae->inv[i]);
    if (rc != SCP_OK) return rc;
  }
  return SCP_OK;
}

/* pop_frame: the same, then the invoker trackers gone out of scope (an
 * empty match stack: the sub-call they were for has returned, or the
 * contract that made them) from the top of their stack. */
void scp_auth_enf_pop_frame(scp_host *h) {
  scp_auth_enf *e = h->ae;
  for (size_t i = 0; e && i < e->ntr; i++)
    if (!e->tr[i].borrowed) pop_one(&e->tr[i]);
  for (size_t i = 0; e && i < e->ninv; i++) pop_one(&e->inv[i]);
  while (e && e->ninv && !e->inv[e->ninv - 1].nms) tracker_free(&e->inv[--e->ninv]);
}

static uint32_t nchildren(const ae_tracker *t, size_t k) {
  uint32_t c = 0;
  for (size_t j = k + 1; j < t->nnodes; j++) c += t->nodes[j].parent == k;
  return c;
}

/* A metered_collect of n AuthorizedInvocationSnapshot results. */
static int collect_snapshots(scp_host *h, size_t n) {
  int rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, n, SIZE_RESULT_SNAPSHOT);
  return rc == SCP_OK ? scp_host_charge_copy(h, n, SIZE_RESULT_SNAPSHOT) : rc;
}

/* AuthorizedInvocation::snapshot of a tree: per node, its children's
 * collect. */
static int tree_snapshot(scp_host *h, const ae_tracker *t) {
  for (size_t k = 0; k < t->nnodes; k++) {
    int rc = collect_snapshots(h, nchildren(t, k));
    if (rc != SCP_OK) return rc;
  }
  return SCP_OK;
}

/* snapshot() of each tracker not being authenticated: the tree's
 * AuthorizedInvocationSnapshot collects (per node MemCpy(40) + its
 * children x 48). */
int scp_auth_enf_snapshot_charges(scp_host *h) {
  for (size_t i = 0; h->ae && i < h->ae->ntr; i++) {
    if (h->ae->tr[i].borrowed) continue;
    int rc = tree_snapshot(h, &h->ae->tr[i]);
    if (rc == SCP_OK && h->ae->tr[i].deleg) rc = scp_auth_deleg_snapshot_charges(h, h->ae->tr[i].deleg);
    if (rc != SCP_OK) return rc;
  }
  return SCP_OK;
}

/* snapshot()'s invoker_contract_tracker_root_snapshots (both modes). */
int scp_auth_enf_snapshot_invokers(scp_host *h) {
  size_t n = h->ae ? h->ae->ninv : 0;
  int rc = collect_snapshots(h, n);
  for (size_t i = 0; rc == SCP_OK && i < n; i++) rc = tree_snapshot(h, &h->ae->inv[i]);
  return rc;
}

void scp_auth_enf_snap_free(scp_auth_enf_snap *s) {
  if (!s) return;
  for (size_t i = 0; s->exhausted && i < s->ntr; i++) free(s->exhausted[i]);
  for (size_t i = 0; s->inv_exhausted && i < s->ninv; i++) free(s->inv_exhausted[i]);
  for (size_t i = 0; s->deleg && i < s->ntr; i++) scp_auth_deleg_state_free(s->deleg[i]);
  free(s->deleg);
  free(s->inv_exhausted);
  free(s->exhausted);
  free(s->taken);
  free(s->verified);
  free(s);
}

static bool *flags_of(const ae_tracker *t) {
  bool *f = calloc(t->nnodes + 1, sizeof *f);
  for (size_t k = 0; f && k < t->nnodes; k++) f[k] = t->nodes[k].exhausted;
  return f;
}

static void flags_restore(ae_tracker *t, const bool *f) {
  for (size_t k = 0; k < t->nnodes; k++) t->nodes[k].exhausted = f[k];
  /* InvocationTracker::rollback: a root no longer exhausted is neither
   * matched nor processed */
  if (t->nnodes && !t->nodes[0].exhausted) {
    t->root_frame = -1;
    t->done = false;
  }
}

int scp_auth_enf_save(const scp_host *h, scp_auth_enf_snap **out) {
  *out = NULL;
  scp_auth_enf_snap *s = calloc(1, sizeof *s);
  size_t n = h->ae ? h->ae->ntr : 0, ni = h->ae ? h->ae->ninv : 0;
  if (!s) return SCP_ERR_NOMEM;
  s->ntr = n;
  s->ninv = ni;
  s->taken = calloc(n + 1, sizeof *s->taken);
  s->verified = calloc(n + 1, sizeof *s->verified);
  s->exhausted = calloc(n + 1, sizeof *s->exhausted);
  s->inv_exhausted = calloc(ni + 1, sizeof *s->inv_exhausted);
  s->deleg = calloc(n + 1, sizeof *s->deleg);
  if (!s->taken || !s->verified || !s->exhausted || !s->inv_exhausted || !s->deleg) {
    scp_auth_enf_snap_free(s);
    return SCP_ERR_NOMEM;
  }
  for (size_t i = 0; i < ni; i++)
    if (!(s->inv_exhausted[i] = flags_of(&h->ae->inv[i]))) {
      scp_auth_enf_snap_free(s);
      return SCP_ERR_NOMEM;
    }
  for (size_t i = 0; i < n; i++) {
    const ae_tracker *t = &h->ae->tr[i];
    s->taken[i] = !t->borrowed;
    s->verified[i] = t->verified;
    if (!(s->exhausted[i] = calloc(t->nnodes + 1, sizeof **s->exhausted))) {
      scp_auth_enf_snap_free(s);
      return SCP_ERR_NOMEM;
    }
    for (size_t k = 0; k < t->nnodes; k++) s->exhausted[i][k] = t->nodes[k].exhausted;
    if (t->deleg && s->taken[i] && !(s->deleg[i] = scp_auth_deleg_save(t->deleg))) {
      scp_auth_enf_snap_free(s);
      return SCP_ERR_NOMEM;
    }
  }
  *out = s;
  return SCP_OK;
}

/* rollback: the account trackers' exhausted flags and verified as at the
 * frame's push; the invoker trackers the failing frame made dropped, the
 * others' flags restored. */
void scp_auth_enf_restore(scp_host *h, scp_auth_enf_snap *s) {
  if (!s) return;
  scp_auth_enf *e = h->ae;
  for (size_t i = 0; e && i < s->ntr && i < e->ntr; i++) {
    if (!s->taken[i]) continue;
    e->tr[i].verified = s->verified[i];
    flags_restore(&e->tr[i], s->exhausted[i]);
    if (e->tr[i].deleg && s->deleg[i]) scp_auth_deleg_restore(h, e->tr[i].deleg, s->deleg[i]);
  }
  while (e && e->ninv > s->ninv) tracker_free(&e->inv[--e->ninv]);
  for (size_t i = 0; e && i < e->ninv; i++) flags_restore(&e->inv[i], s->inv_exhausted[i]);
  scp_auth_enf_snap_free(s);
}

/* ---- require_auth_enforcing --------------------------------------------------------- */

typedef struct ae_fn {
  uint64_t contract, fnsym;
  const uint64_t *args;
  uint32_t nargs;
  const scp_create_args *create;   /* contract 0: the create-contract frame's */
} ae_fn;

/* The function a require_auth asks for: the contract's (contract 0: the
 * create-contract frame's), its name as a Symbol -- a long name's Symbol
 * object exists in the reference already (the frame's), so it is made
 * here uncharged. */
static int ae_fn_init(scp_host *h, ae_fn *f, uint64_t contract, const char *fn, const uint64_t *args,
                      uint32_t nargs) {
  *f = (ae_fn){ .contract = contract, .args = args, .nargs = nargs,
                .create = contract ? NULL : scp_auth_mgr_top_create(h) };
  size_t fl = strlen(fn);
  if (!contract || scp_val_symbol_small((const uint8_t *)fn, fl, &f->fnsym)) return SCP_OK;
  scp_budget *real = h->budget, shadow;
  scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
  h->budget = &shadow;
  int rc = scp_host_memobj_new_from_slice(h, SCP_TAG_SYMBOL_OBJ, (const uint8_t *)fn, (uint32_t)fl,
                                          &f->fnsym);
  h->budget = real;
  return rc;
}

static bool is_active(const ae_tracker *t) { return t->nnodes && t->nodes[0].exhausted && !t->done; }
static bool frame_matched(const ae_tracker *t) { return t->nms && t->ms[t->nms - 1]; }

/* Compare<ContractFunction>: the addresses, the names, the args (in order,
 * up to the first difference; a shorter list sorts first). */
static int fn_equal(scp_host *h, const ae_node *n, const ae_fn *f, bool *eq) {
  int ord = 0;
  *eq = false;
  /* a contract function and a create-contract one: ordered, free */
  if (!f->contract != !n->contract) return SCP_OK;
  if (!f->contract) {   /* Compare<CreateContractArgsV2> */
    if (!f->create) return SCP_OK;
    int rc = scp_auth_create_compare(h, n->create, f->create, &ord);
    *eq = rc == SCP_OK && !ord;
    return rc;
  }
  int rc = scp_host_compare(h, n->contract, f->contract, &ord);
  if (rc == SCP_OK && !ord) rc = scp_host_compare(h, n->fnsym, f->fnsym, &ord);
  for (uint32_t i = 0; rc == SCP_OK && !ord && i < n->nargs && i < f->nargs; i++)
    rc = scp_host_compare(h, n->args[i], f->args[i], &ord);
  if (rc == SCP_OK && !ord && n->nargs != f->nargs) ord = 1;
  *eq = rc == SCP_OK && !ord;
  return rc;
}

/* InvocationTracker::maybe_extend_invocation_match. */
static int extend_match(scp_host *h, ae_tracker *t, const ae_fn *f, bool allow_root, bool *hit) {
  *hit = false;
  if (!t->nms)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INTERNAL_ERROR,
                        "match_stack should not be empty in maybe_extend_invocation_match");
  if (frame_matched(t)) return SCP_OK;
  /* last_authorized_invocation_mut: the deepest matched node */
  long cur = -1;
  for (size_t i = 0; i < t->nms; i++)
    if (t->ms[i]) cur = (long)t->ms[i] - 1;
  bool eq = false;
  int rc = SCP_OK;
  if (cur >= 0) {
    for (size_t k = (size_t)cur + 1; k < t->nnodes; k++) {
      if (t->nodes[k].parent != (uint32_t)cur || t->nodes[k].exhausted) continue;
      if ((rc = fn_equal(h, &t->nodes[k], f, &eq)) != SCP_OK) return rc;
      if (eq) {
        t->nodes[k].exhausted = true;
        t->ms[t->nms - 1] = (uint32_t)k + 1;
        *hit = true;
        return SCP_OK;
      }
    }
  } else if (t->nnodes && !t->nodes[0].exhausted && allow_root) {
    if ((rc = fn_equal(h, &t->nodes[0], f, &eq)) != SCP_OK) return rc;
    if (eq) {
      t->nodes[0].exhausted = true;
      t->root_frame = (long)t->nms - 1;
      t->ms[t->nms - 1] = 1;
      *hit = true;
    }
  }
  return rc;
}

/* check_account_contract_auth: __check_auth(signature_payload, signature,
 * auth_contexts) through call_n_internal; its result must be Void. */
static int check_contract(scp_host *h, const uint8_t id[32], uint64_t payload, uint64_t sig,
                          uint64_t ctx) {
  uint64_t fnsym, ret = SCP_VAL_VOID;
  int rc = scp_native_symbol(h, "__check_auth", &fnsym);   /* Symbol::try_from_val(&str) */
  uint64_t args[3] = { payload, sig, ctx };
  if (rc == SCP_OK && scp_auth_enf_probe) scp_auth_enf_probe(h);
  if (rc == SCP_OK) {
    if (h->auth_hook) h->auth_hook(h->invoker_ctx, SCP_AUTH_VERIFY_CONTRACT, true);
    rc = scp_host_call_internal(h, id, "__check_auth", args, 3, &ret);
    if (h->auth_hook) h->auth_hook(h->invoker_ctx, SCP_AUTH_VERIFY_CONTRACT, false);
  }
  if (rc == SCP_OK && ret != SCP_VAL_VOID)
    rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "__check_auth did not return Void");
  return rc;
}

/* AccountAuthorizationTracker::authenticate (not the source account):
 * host_auth_emul.c's payload and contexts, then the account's signature
 * check or the contract's __check_auth call, with an AuthenticationFrame
 * (the tracker, payload, context) pushed that delegate_account_auth
 * reads.  A __check_auth that re-enters its own contract is
 * host_contract.c's: the running frame's instance storage persisted
 * first. */
static int authenticate(scp_host *h, ae_tracker *t) {
  const scp_hobj *a;
  int rc = scp_host_visit(h, t->address, &a);   /* scaddress_from_address */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, 48);
  if (rc != SCP_OK) return rc;
  uint8_t self[33];
  memcpy(self, a->u.bytes, 33);
  scp_auth_mgr_tnode *nodes = calloc(t->nnodes + 1, sizeof *nodes);
  if (!nodes) return SCP_ERR_NOMEM;
  for (size_t k = 0; k < t->nnodes; k++)
    nodes[k] = (scp_auth_mgr_tnode){ .is_contract_fn = !t->nodes[k].create,
                               .contract = t->nodes[k].contract, .fn = t->nodes[k].fn,
                               .args = t->nodes[k].args, .nargs = t->nodes[k].nargs,
                               .parent = t->nodes[k].parent, .create = t->nodes[k].create };
  scp_auth_emul_in in = { .address = t->address, .nonce = t->nonce, .live_until = t->live_until,
                     .with_address = t->cred == CRED_ADDRESS_V2 || t->cred == CRED_DELEGATES,
                     .nodes = nodes, .nnodes = t->nnodes };
  uint64_t payload = 0, ctx = 0;
  uint8_t hash[32];
  rc = scp_auth_emul_inputs(h, &in, &payload, &ctx, hash);
  free(nodes);
  if (rc != SCP_OK) return rc;
  /* the AuthenticationFrame, over the account's checks */
  scp_auth_enf *e = h->ae;
  if (!scp_grow(&e->astack, &e->capastack, e->nastack + 1, sizeof *e->astack)) return SCP_ERR_NOMEM;
  e->astack[e->nastack++] = (ae_auth_frame){ .tracker = (size_t)(t - e->tr), .payload = payload, .ctx = ctx };
  rc = self[0] == 0 ? scp_auth_emul_check_account(h, self + 1, payload, t->signature)
                    : check_contract(h, self + 1, payload, t->signature, ctx);
  h->ae->nastack--;
  return rc;
}

int scp_auth_enf_current_auth(scp_host *h, scp_auth_deleg **deleg, uint64_t *payload, uint64_t *ctx) {
  scp_auth_enf *e = h->ae;
  if (!e || !e->nastack)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INTERNAL_ERROR,
                        "with_current_authentication_frame called with empty authentication stack");
  const ae_auth_frame *f = &e->astack[e->nastack - 1];
  *deleg = e->tr[f->tracker].deleg;
  *payload = f->payload;
  *ctx = f->ctx;
  return SCP_OK;
}

/* verify_and_consume_nonce. */
static int verify_nonce(scp_host *h, ae_tracker *t) {
  if (t->cred == CRED_SOURCE) return SCP_OK;
  if (h->opts.ledger_sequence > t->live_until)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_INPUT, "signature has expired");
  uint64_t max = (uint64_t)h->opts.ledger_sequence + h->opts.max_entry_ttl - 1;
  if (t->live_until > max)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_INPUT, "signature expiration is too late");
  return scp_auth_mgr_consume_nonce(h, t->address, t->nonce, t->live_until);
}

/* A recoverable error becomes Error(Auth, InvalidAction), so it cannot
 * pass for the caller's own (HostError::is_recoverable: not a non-contract
 * InternalError, not Budget's or Storage's ExceededLimit). */
static int decorate(scp_host *h, int rc) {
  if (rc != SCP_ERR_HOST && rc != SCP_ERR_TRAP) return rc;
  uint64_t ev = h->errval;
  unsigned type = (unsigned)scp_val_minor(ev), code = scp_val_major(ev);
  if (scp_val_tag_of(ev) == SCP_TAG_ERROR &&
      ((type != SCP_ET_CONTRACT && code == SCP_EC_INTERNAL_ERROR) ||
       (code == SCP_EC_EXCEEDED_LIMIT && (type == SCP_ET_BUDGET || type == SCP_ET_STORAGE))))
    return rc;
  char why[sizeof h->errmsg];
  memcpy(why, h->errmsg, sizeof why);
  why[160] = 0;
  return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_ACTION,
                      "failed account authentication with error (%s)", why);
}

/* AccountAuthorizationTracker::maybe_authorize_invocation. */
static int maybe_authorize(scp_host *h, ae_tracker *t, const ae_fn *f, bool allow_root, bool *ok) {
  int rc = extend_match(h, t, f, allow_root, ok);
  if (rc != SCP_OK || !*ok || t->verified) return rc;
  if (t->cred != CRED_SOURCE) {
    /* the tracker stays borrowed, and an AuthenticationFrame pushed, over
     * the account's checks (and so over __check_auth) */
    t->borrowed = true;
    h->ae->authenticating++;
    rc = decorate(h, authenticate(h, t));
    h->ae->authenticating--;
    t->borrowed = false;
  }
  if (rc == SCP_OK) rc = verify_nonce(h, t);
  if (rc == SCP_OK) t->verified = true;
  return rc;
}

/* require_auth_enforcing: every tracker's address compared twice (the
 * has-active pass and the matching pass), each candidate node's function
 * compared (address, name, args until one differs); a first match
 * authenticates, checks the expiration ledger (free) and writes the nonce
 * (consume_nonce, as recording mode does).  Errors: a recoverable
 * authentication failure is Error(Auth, InvalidAction) "failed account
 * authentication with error"; an expired signature or one live past the
 * maximum Error(Auth, InvalidInput); a used nonce Error(Auth,
 * ExistingValue); no matching tree Error(Auth, InvalidAction)
 * "Unauthorized function call for address". */
int scp_auth_enf_require(scp_host *h, uint64_t address, uint64_t contract, const char *fn,
                   const uint64_t *args, uint32_t nargs) {
  scp_auth_enf *e = h->ae;
  ae_fn f;
  int frc = ae_fn_init(h, &f, contract, fn, args, nargs);
  if (frc != SCP_OK) return frc;
  /* an active tracker of this address not matched in this frame must
   * take the call (no new root then) */
  bool has_active = false;
  for (size_t i = 0; e && i < e->ntr && !has_active; i++) {
    ae_tracker *t = &e->tr[i];
    if (t->borrowed) continue;
    int ord = 1;
    int rc = scp_host_compare(h, t->address, address, &ord);
    if (rc != SCP_OK) return rc;
    has_active = !ord && is_active(t) && !frame_matched(t);
  }
  for (size_t i = 0; e && i < e->ntr; i++) {
    ae_tracker *t = &e->tr[i];
    if (t->borrowed) continue;
    int ord = 1;
    int rc = scp_host_compare(h, t->address, address, &ord);
    if (rc != SCP_OK) return rc;
    if (ord) continue;
    bool ok = false;
    rc = maybe_authorize(h, &e->tr[i], &f, !has_active, &ok);
    if (rc != SCP_OK || ok) return rc;
  }
  return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_ACTION,
                      "Unauthorized function call for address");
}

/* ---- invoker-contract trackers: authorize_as_curr_contract ---------------------- */

size_t scp_auth_enf_invoker_count(const scp_host *h) { return h->ae ? h->ae->ninv : 0; }

static int not_a(scp_host *h, const char *what) {
  return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "%s", what);
}

/* InvokerContractAuthEntry::try_from_val (a contracttype enum: vec_get of
 * the discriminant, symbol_index_in_strs, vec_get of the value), then
 * to_authorized_invocation -- for the Contract case: SubContractInvocation
 * and its ContractAuthorizationContext (map_unpack_to_slice each), the
 * args' to_vec, the sub-invocations' Vec<AuthorizedInvocation> bulk init
 * and each one in turn.  The create-contract cases are not modelled
 * (SCP_ERR_UNSUPPORTED). */
static int invoker_entry(scp_host *h, ae_tracker *t, uint64_t val, uint32_t parent, size_t *cap,
                         unsigned depth) {
  static const char *const cases[] = { "Contract", "CreateContractHostFn",
                                       "CreateContractWithCtorHostFn" };
  static const char *const sub_keys[] = { "context", "sub_invocations" };
  static const char *const ctx_keys[] = { "args", "contract", "fn_name" };
  if (depth > 64) return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_EXCEEDED_LIMIT, "depth limit");
  if (scp_val_tag_of(val) != SCP_TAG_VEC_OBJ) return not_a(h, "InvokerContractAuthEntry is a Vec");
  uint64_t disc, inner, sv[2], cv[3];
  uint32_t idx = 0;
  int rc = scp_native_env2(h, "vec_get", val, scp_val_u32(0), &disc);
  if (rc == SCP_OK && scp_val_tag_of(disc) != SCP_TAG_SYMBOL_SMALL &&
      scp_val_tag_of(disc) != SCP_TAG_SYMBOL_OBJ)
    rc = not_a(h, "the discriminant is a Symbol");
  if (rc == SCP_OK) rc = scp_native_symbol_index(h, disc, cases, 3, &idx);
  if (rc != SCP_OK) return rc;
  if (idx != 0) return unsupported(h, "authorize_as_curr_contract of a create-contract function");
  rc = scp_native_env2(h, "vec_get", val, scp_val_u32(1), &inner);
  if (rc == SCP_OK && scp_val_tag_of(inner) != SCP_TAG_MAP_OBJ)
    rc = not_a(h, "SubContractInvocation is a Map");
  if (rc == SCP_OK) rc = scp_native_map_unpack(h, inner, sub_keys, 2, sv);
  if (rc == SCP_OK && scp_val_tag_of(sv[0]) != SCP_TAG_MAP_OBJ)
    rc = not_a(h, "ContractAuthorizationContext is a Map");
  if (rc == SCP_OK) rc = scp_native_map_unpack(h, sv[0], ctx_keys, 3, cv);
  if (rc == SCP_OK && (scp_val_tag_of(cv[0]) != SCP_TAG_VEC_OBJ ||
                       scp_val_tag_of(cv[1]) != SCP_TAG_ADDRESS_OBJ ||
                       (scp_val_tag_of(cv[2]) != SCP_TAG_SYMBOL_SMALL &&
                        scp_val_tag_of(cv[2]) != SCP_TAG_SYMBOL_OBJ)))
    rc = not_a(h, "ContractAuthorizationContext's fields");
  if (rc == SCP_OK && scp_val_tag_of(sv[1]) != SCP_TAG_VEC_OBJ)
    rc = not_a(h, "sub_invocations is a Vec");
  if (rc != SCP_OK) return rc;
  /* the function: the args' to_vec */
  const scp_hobj *args, *subs;
  rc = scp_host_visit(h, cv[0], &args);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, args->len, 8);
  if (rc != SCP_OK) return rc;
  if (!scp_grow(&t->nodes, cap, t->nnodes + 1, sizeof *t->nodes)) return SCP_ERR_NOMEM;
  uint32_t me = (uint32_t)t->nnodes++;
  ae_node *nd = &t->nodes[me];
  *nd = (ae_node){ .contract = cv[1], .fnsym = cv[2], .parent = parent, .nargs = args->len };
  if (!(nd->args = malloc((args->len + 1) * sizeof *nd->args))) return SCP_ERR_NOMEM;
  if (args->len) memcpy(nd->args, args->u.vals, args->len * sizeof *nd->args);
  /* the sub-invocations */
  rc = scp_host_visit(h, sv[1], &subs);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, subs->len, 208);   /* AuthorizedInvocation */
  uint32_t n = rc == SCP_OK ? subs->len : 0;
  uint64_t *kids = calloc(n + 1, sizeof *kids);
  if (!kids) return SCP_ERR_NOMEM;
  if (n) memcpy(kids, subs->u.vals, n * sizeof *kids);
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++)
    rc = invoker_entry(h, t, kids[i], me, cap, depth + 1);
  free(kids);
  return rc;
}

/* add_invoker_contract_auth_with_curr_contract_as_invoker after the
 * entries' to_vec and the tracker Vec's bulk init: per entry
 * new_with_curr_contract_as_invoker (the current contract's id clone, the
 * tree, an address object for the contract). */
int scp_auth_enf_add_invokers(scp_host *h, const uint64_t *entries, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    if (!scp_host_in_vm(h))
      return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                          "Current context has no contract ID");
    int rc = scp_host_charge_copy(h, 1, 32);   /* get_current_contract_id_internal */
    if (rc != SCP_OK) return rc;
    ae_tracker t = { .root_frame = -1 };
    size_t cap = 0;
    rc = invoker_entry(h, &t, entries[i], 0, &cap, 0);
    uint8_t enc[33];
    enc[0] = 1;
    memcpy(enc + 1, h->frames[h->nframes - 1].contract_id, 32);
    if (rc == SCP_OK) rc = new_address(h, enc, &t.address);
    scp_auth_enf *e = h->ae ? h->ae : (h->ae = calloc(1, sizeof *h->ae));
    if (rc == SCP_OK && (!e || !scp_grow(&e->inv, &e->capinv, e->ninv + 1, sizeof *e->inv)))
      rc = SCP_ERR_NOMEM;
    if (rc != SCP_OK) {
      tracker_free(&t);
      return rc;
    }
    e->inv[e->ninv++] = t;
  }
  return SCP_OK;
}

/* maybe_check_invoker_contract_auth's second half (the direct invoker is
 * the manager's): an invoker tracker of `address`, not made by the
 * current contract (curr; 0 for a create-contract frame), whose tree
 * matches the function (root allowed). */
int scp_auth_enf_check_invokers(scp_host *h, uint64_t address, uint64_t curr, const char *fn,
                          const uint64_t *args, uint32_t nargs, bool *ok) {
  *ok = false;
  scp_auth_enf *e = h->ae;
  ae_fn f;
  int frc = ae_fn_init(h, &f, curr, fn, args, nargs);
  if (frc != SCP_OK) return frc;
  for (size_t i = 0; e && i < e->ninv; i++) {
    int ord = 1, rc;
    if (curr) {
      if ((rc = scp_host_compare(h, e->inv[i].address, curr, &ord)) != SCP_OK) return rc;
      if (!ord) continue;
    }
    if ((rc = scp_host_compare(h, e->inv[i].address, address, &ord)) != SCP_OK) return rc;
    if (ord) continue;
    if ((rc = extend_match(h, &e->inv[i], &f, true, ok)) != SCP_OK || *ok) return rc;
  }
  return SCP_OK;
}
