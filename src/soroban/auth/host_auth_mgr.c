/*
 * host_auth_mgr.c — the authorization manager: its call stack of contract
 * and create-contract frames, the account trackers of recording mode with
 * their match stacks, the nonces they write, and the snapshot a failing
 * frame rolls back to.  Enforcing mode's trackers (host_auth_enf.c) are
 * driven from here; the host functions are in host_auth.c.  Reference:
 * rs-soroban-env v28 auth.rs AuthorizationManager and InvocationTracker;
 * each function names its part.  A pop is free (pop_frame with or without
 * a snapshot).
 */
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/core/host_lifecycle.h"

enum {
  SIZE_SCADDRESS = 48, SIZE_SCVAL = 96, SIZE_LEDGER_KEY = 152, SIZE_LEDGER_ENTRY = 288,
  SIZE_ACCOUNT_ID = 32, SIZE_USIZE = 8, SIZE_SYMBOL = 8, SIZE_SCSYMBOL = 24,
  SIZE_CREATE_ARGS_V2 = 176, SIZE_CONTRACT_ID_PREIMAGE = 80, SIZE_CONTRACT_EXECUTABLE = 72,
  SIZE_OPT_TRACKER_SNAPSHOT = 96 + 8,   /* Option<AccountAuthorizationTrackerSnapshot> */
  SIZE_RESULT_VEC = 24 + 16,            /* Result<Vec<_>, HostError> */
  SIZE_RESULT_SCVAL = 96 + 16, SIZE_RESULT_VAL = 8 + 16
};

/* match-stack entries: 0 unmatched, else the matched node's index + 1 */
enum { MS_UNMATCHED = 0, MS_ROOT = 1 };
enum { AF_CONTRACT = 0, AF_CREATE };

typedef struct am_entry {
  uint8_t kind;          /* AF_* */
  uint64_t addr;         /* contract: the ScAddress object of push_frame */
  size_t hdepth;         /* contract: the host frame's index */
  int (*clone_args)(scp_host *, const void *);   /* create: the args' metered_clone */
  const void *ctx;
  const uint64_t *ctor;  /* create: constructor args (the caller's, live over the frame) */
  uint32_t nctor;
} am_entry;

/* A function a recording tracker authorized (kept for
 * maybe_emulate_authentication; owned by the manager, shared by the
 * trackers' rollback copies). */
typedef struct am_root {
  uint8_t kind;          /* AF_* */
  uint64_t addr;         /* contract: the contract's AddressObject */
  char fn[64];           /* contract: the function name */
  uint64_t *args;
  uint32_t nargs;
  scp_create_args *create;   /* create: the CreateContractArgsV2 (owned) */
} am_root;

/* A node of the authorized invocation tree: nodes are appended in
 * pre-order (node 0 is the root). */
typedef struct am_node {
  const am_root *fn;
  uint32_t parent;
} am_node;

typedef struct am_tracker {
  uint64_t address;      /* the AddressObject it was made for */
  am_node *nodes;        /* root_authorized_invocation's tree */
  size_t nnodes, capnodes;
  int64_t nonce;
  uint32_t nonce_live_until;
  bool mapped;           /* tracker_by_address_handle maps address's handle here */
  bool source;           /* SourceAccount credentials: no nonce */
  uint32_t *ms;          /* match stack (MS_UNMATCHED or node + 1) */
  size_t nms, capms;
  long root_frame;       /* root_exhausted_frame, -1 = None */
  bool done;             /* is_fully_processed */
} am_tracker;

typedef struct scp_auth_mgr {
  am_entry *stack;
  size_t n, cap;
  am_tracker *tr;
  size_t ntr, captr;
  am_root **roots;
  size_t nroots, caproots;
} scp_auth_mgr;

struct scp_auth_mgr_snap {
  am_tracker *tr;
  size_t ntr;
  scp_auth_enf_snap *ae;   /* the enforcing trackers' (host_auth_enf.c) */
};

static scp_auth_mgr *mgr(scp_host *h) {
  if (!h->am) h->am = calloc(1, sizeof *h->am);
  return h->am;
}

static void trackers_free(am_tracker *t, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(t[i].ms);
    free(t[i].nodes);
  }
  free(t);
}

/* pop_context: with no context left, recording mode's emulated
 * authentication (host_auth_emul.c), then the manager's pop_frame. */
void scp_auth_mgr_frame_popped(scp_host *h) {
  if (!h->nframes && h->am && scp_auth_mgr_tracker_count(h)) {
    int rc = scp_auth_emul_run(h);
    if (h->auth_emul_rc == SCP_OK) h->auth_emul_rc = rc;
  }
  scp_auth_mgr_pop_host_frame(h);   /* AuthorizationManager::pop_frame (free) */
}

void scp_auth_mgr_free(scp_host *h) {
  scp_auth_enf_free(h);
  if (!h->am) return;
  for (size_t i = 0; i < h->am->n; i++)
    if (h->am->stack[i].kind == AF_CREATE) free((void *)h->am->stack[i].ctx);
  free(h->am->stack);
  trackers_free(h->am->tr, h->am->ntr);
  for (size_t i = 0; i < h->am->nroots; i++) {
    free(h->am->roots[i]->args);
    scp_auth_create_free(h->am->roots[i]->create);
    free(h->am->roots[i]);
  }
  free(h->am->roots);
  free(h->am);
  h->am = NULL;
}

size_t scp_auth_mgr_tracker_count(const scp_host *h) { return h->am ? h->am->ntr : 0; }
size_t scp_auth_mgr_depth(const scp_host *h) { return h->am ? h->am->n : 0; }

uint64_t scp_auth_mgr_frame_address(const scp_host *h, size_t d) {
  if (!h->am) return 0;
  for (size_t i = h->am->n; i-- > 0;)
    if (h->am->stack[i].kind == AF_CONTRACT && h->am->stack[i].hdepth == d)
      return h->am->stack[i].addr;
  return 0;
}

static bool ms_push(am_tracker *t, uint32_t v) {
  if (!scp_grow(&t->ms, &t->capms, t->nms + 1, sizeof *t->ms)) return false;
  t->ms[t->nms++] = v;
  return true;
}

/* push_tracker_frame: InvocationTracker::push_frame of every account
 * tracker, recording's here, enforcing's in host_auth_enf.c (invoker
 * trackers are not modelled): one Vec<usize> bulk init of 1 per tracker
 * (MemCpy(24), MemAlloc(8), MemCpy(8): 521 CPU, 24 B) for every contract
 * and create-contract frame (host-function frames push no tracker
 * frame). */
static int push_tracker_frame(scp_host *h, scp_auth_mgr *m) {
  for (size_t i = 0; i < m->ntr; i++) {
    int rc = scp_host_charge_bulk_init(h, 1, SIZE_USIZE);
    if (rc != SCP_OK) return rc;
    if (!ms_push(&m->tr[i], MS_UNMATCHED)) return SCP_ERR_NOMEM;
  }
  return scp_auth_enf_push_frame(h);
}

static int push_entry(scp_host *h, am_entry e) {
  scp_auth_mgr *m = mgr(h);
  if (!m || !scp_grow(&m->stack, &m->cap, m->n + 1, sizeof *m->stack)) return SCP_ERR_NOMEM;
  m->stack[m->n++] = e;
  return push_tracker_frame(h, m);
}

int scp_auth_mgr_push_contract(scp_host *h, uint64_t addr) {
  return push_entry(h, (am_entry){ .kind = AF_CONTRACT, .addr = addr, .hdepth = h->nframes });
}

int scp_auth_mgr_push_create(scp_host *h, int (*clone_args)(scp_host *, const void *), const void *ctx,
                       const uint64_t *ctor, uint32_t nctor) {
  int rc = scp_host_charge_bulk_init(h, 1, SIZE_CREATE_ARGS_V2);
  if (rc != SCP_OK) return rc;
  scp_auth_mgr *m = mgr(h);
  if (!m || !scp_grow(&m->stack, &m->cap, m->n + 1, sizeof *m->stack)) return SCP_ERR_NOMEM;
  /* the entry owns ctx from here (freed at its pop) */
  m->stack[m->n++] =
      (am_entry){ .kind = AF_CREATE, .clone_args = clone_args, .ctx = ctx, .ctor = ctor,
                  .nctor = nctor };
  return push_tracker_frame(h, m);
}

/* pop_frame: the call stack, then InvocationTracker::pop_frame of each
 * tracker (a root popped past makes the tracker fully processed). */
void scp_auth_mgr_pop(scp_host *h) {
  scp_auth_mgr *m = h->am;
  if (!m || !m->n) return;
  m->n--;
  if (m->stack[m->n].kind == AF_CREATE) free((void *)m->stack[m->n].ctx);
  for (size_t i = 0; i < m->ntr; i++) {
    am_tracker *t = &m->tr[i];
    if (t->nms) t->nms--;
    if (t->root_frame >= 0 && (size_t)t->root_frame >= t->nms) t->done = true;
  }
  scp_auth_enf_pop_frame(h);
}

/* A host frame popped: its contract entry goes with it. */
void scp_auth_mgr_pop_host_frame(scp_host *h) {
  scp_auth_mgr *m = h->am;
  if (m && m->n && m->stack[m->n - 1].kind == AF_CONTRACT &&
      m->stack[m->n - 1].hdepth == h->nframes)
    scp_auth_mgr_pop(h);
}

/* snapshot()'s charges: enforcing, Vec<Option<AccountAuthorization
 * TrackerSnapshot>> with capacity = the trackers, then each entry
 * tracker's tree snapshot; both modes, the invoker trackers'
 * metered_collect and their trees' (host_auth_enf.c).  Recording mode
 * clones its trackers and the handle map unmetered ("free for
 * recording"). */
int scp_auth_mgr_snapshot_charges(scp_host *h) {
  int rc = SCP_OK;
  if (h->opts.auth_enforcing) {
    rc = scp_host_charge_bulk_init(h, scp_auth_mgr_tracker_count(h) + scp_auth_enf_count(h),
                                   SIZE_OPT_TRACKER_SNAPSHOT);
    if (rc == SCP_OK) rc = scp_auth_enf_snapshot_charges(h);
  }
  /* invoker_contract_tracker_root_snapshots (host_auth_enf.c) */
  return rc == SCP_OK ? scp_auth_enf_snapshot_invokers(h) : rc;
}

static int trackers_copy(const am_tracker *src, size_t n, am_tracker **out) {
  am_tracker *t = calloc(n + 1, sizeof *t);
  if (!t) return SCP_ERR_NOMEM;
  for (size_t i = 0; i < n; i++) {
    t[i] = src[i];
    t[i].ms = malloc((src[i].nms + 1) * sizeof *t[i].ms);
    t[i].capms = src[i].nms + 1;
    t[i].nodes = malloc((src[i].nnodes + 1) * sizeof *t[i].nodes);
    t[i].capnodes = src[i].nnodes + 1;
    if (!t[i].ms || !t[i].nodes) {
      trackers_free(t, i + 1);
      return SCP_ERR_NOMEM;
    }
    memcpy(t[i].ms, src[i].ms, src[i].nms * sizeof *t[i].ms);
    if (src[i].nnodes) memcpy(t[i].nodes, src[i].nodes, src[i].nnodes * sizeof *t[i].nodes);
  }
  *out = t;
  return SCP_OK;
}

int scp_auth_mgr_save(scp_host *h, scp_auth_mgr_snap **out) {
  *out = NULL;
  scp_auth_mgr_snap *s = calloc(1, sizeof *s);
  if (!s) return SCP_ERR_NOMEM;
  const scp_auth_mgr *m = h->am;
  int rc = trackers_copy(m ? m->tr : NULL, m ? m->ntr : 0, &s->tr);
  if (rc != SCP_OK) {
    free(s);
    return rc;
  }
  s->ntr = m ? m->ntr : 0;
  rc = scp_auth_enf_save(h, &s->ae);
  if (rc != SCP_OK) {
    scp_auth_mgr_snap_free(s);
    return rc;
  }
  *out = s;
  return SCP_OK;
}

/* rollback (recording): the trackers and the handle map as at the frame's
 * push.  Taken before the push and restored after the pop, which leaves
 * the same state: the pushed match-stack entry is gone either way. */
void scp_auth_mgr_restore(scp_host *h, scp_auth_mgr_snap *s) {
  if (!s) return;
  scp_auth_mgr *m = mgr(h);
  if (!m) {
    scp_auth_mgr_snap_free(s);
    return;
  }
  scp_auth_enf_restore(h, s->ae);
  s->ae = NULL;
  trackers_free(m->tr, m->ntr);
  m->tr = s->tr;
  m->ntr = m->captr = s->ntr;
  if (!m->tr) m->captr = 0;
  free(s);
}

void scp_auth_mgr_snap_free(scp_auth_mgr_snap *s) {
  if (!s) return;
  scp_auth_enf_snap_free(s->ae);
  trackers_free(s->tr, s->ntr);
  free(s);
}

/* ---- recording mode ---------------------------------------------------------- */

static bool has_matched(const am_tracker *t) {
  for (size_t i = 0; i < t->nms; i++)
    if (t->ms[i] != MS_UNMATCHED) return true;
  return false;
}

static bool frame_matched(const am_tracker *t) {
  return t->nms && t->ms[t->nms - 1] != MS_UNMATCHED;
}

/* Host::consume_nonce: the nonce entry written through the storage -- the
 * ScAddress (visit + clone), its clone, the LedgerKeyNonce ScVal clone,
 * Rc<LedgerKey> (MemAlloc(152)), storage has, Rc<LedgerEntry>
 * (MemAlloc(288)), storage put (temporary, live until
 * max(max_live_until_ledger, the temporary minimum)). */
int scp_auth_mgr_consume_nonce(scp_host *h, uint64_t address, int64_t nonce, uint32_t live_until) {
  const scp_hobj *a;
  int rc = scp_host_visit(h, address, &a);   /* scaddress_from_address */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  /* its metered_clone, the LedgerKeyNonce ScVal's, storage_key_for_address */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCVAL);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc != SCP_OK) return rc;
  if (a->len != 33 || a->u.bytes[0] > 1)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INTERNAL_ERROR,
                        "nonce for an unsupported address kind");
  uint8_t key[12] = { 0, 0, 0, 21 };   /* ScVal::LedgerKeyNonce */
  scp_put_be64(key + 4, (uint64_t)nonce);
  scp_lkey k = { .type = SCP_LK_CONTRACT_DATA, .dur = SCP_DUR_TEMPORARY,
                 .account = a->u.bytes[0] == 0, .key = key, .keylen = sizeof key };
  memcpy(k.id, a->u.bytes + 1, 32);
  uint32_t min_lu = h->opts.ledger_sequence + h->opts.min_temp_entry_ttl - 1;
  if (live_until < min_lu) live_until = min_lu;
  bool has = false;
  rc = scp_storage_has(h, &k, &has);
  if (rc != SCP_OK) return rc;
  if (has)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_EXISTING_VALUE, "nonce already exists for address");
  rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_ENTRY);   /* Rc::metered_new(entry) */
  static const uint8_t void_val[4] = { 0, 0, 0, 1 };   /* ScVal::Void */
  return rc == SCP_OK ? scp_storage_put(h, &k, void_val, sizeof void_val, live_until) : rc;
}

/* AccountAuthorizationTracker::new_recording, then the push and the map. */
/* The running frame's function (with the args require_auth was given),
 * kept in the manager's list. */
static int keep_fn(scp_host *h, scp_auth_mgr *m, const uint64_t *args, uint32_t nargs,
                   const am_root **out) {
  const am_entry *top = &m->stack[m->n - 1];
  am_root *r = calloc(1, sizeof *r);
  if (!r || !scp_grow(&m->roots, &m->caproots, m->nroots + 1, sizeof *m->roots)) {
    free(r);
    return SCP_ERR_NOMEM;
  }
  m->roots[m->nroots++] = r;
  r->kind = top->kind;
  if (top->kind == AF_CONTRACT) {
    r->addr = top->addr;
    snprintf(r->fn, sizeof r->fn, "%s", h->frames[top->hdepth].fn);
    if (!(r->args = malloc((nargs ? nargs : 1) * sizeof *r->args))) return SCP_ERR_NOMEM;
    if (nargs) memcpy(r->args, args, nargs * sizeof *args);
    r->nargs = nargs;
  } else if (!(r->create = scp_auth_create_dup(top->ctx))) {
    return SCP_ERR_NOMEM;
  }
  *out = r;
  return SCP_OK;
}

/* require_auth_recording for a new tracker: source_account_address when a
 * source account is set (AccountId clone, the ScAddress object, the
 * address compare), the nonce from the recording PRNG (host.rs
 * with_recording_auth_nonce_prng: gen_range(0..=i64::MAX), unmetered)
 * unless the address is the source account, and consume_nonce.  Each
 * tracker keeps its root function and nonce for the emulated
 * authentication at the end (host_auth_emul.c). */
static int new_tracker(scp_host *h, scp_auth_mgr *m, uint64_t address, const uint64_t *args,
                       uint32_t nargs) {
  bool source = false;
  int64_t nonce = 0;
  uint32_t nonce_lu = 0;
  int rc;
  if (h->opts.has_source_account) {
    /* source_account_address: the AccountId clone, the ScAddress object */
    uint8_t enc[33];
    enc[0] = 0;
    memcpy(enc + 1, h->opts.source_account, 32);
    scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
    if (!(o.u.bytes = malloc(33))) return SCP_ERR_NOMEM;
    memcpy(o.u.bytes, enc, 33);
    uint64_t src;
    rc = scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
    if (rc != SCP_OK) {
      free(o.u.bytes);
      return rc;
    }
    rc = scp_host_add_obj(h, &o, &src);
    int ord = 1;
    if (rc == SCP_OK) rc = scp_host_compare(h, src, address, &ord);
    if (rc != SCP_OK) return rc;
    source = ord == 0;
  }
  if (!source) {
    if (!h->has_nonce_prng)
      return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                          "missing recording-auth nonce PRNG");
    nonce = (int64_t)scp_prng_u64_inclusive(&h->nonce_prng, 0, INT64_MAX);
    h->nonces_drawn++;
    uint64_t mlu = (uint64_t)h->opts.ledger_sequence + h->opts.max_entry_ttl - 1;
    if (mlu > UINT32_MAX)
      return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR, "max live-until overflows");
    nonce_lu = (uint32_t)mlu;
    rc = scp_auth_mgr_consume_nonce(h, address, nonce, (uint32_t)mlu);
    if (rc != SCP_OK) return rc;
  }
  /* the root function, kept for the emulation (uncharged bookkeeping) */
  const am_root *r;
  rc = keep_fn(h, m, args, nargs, &r);
  if (rc != SCP_OK) return rc;
  /* InvocationTracker::new_recording: Unmatched below, the root here */
  if (!scp_grow(&m->tr, &m->captr, m->ntr + 1, sizeof *m->tr)) return SCP_ERR_NOMEM;
  am_tracker *t = &m->tr[m->ntr];
  *t = (am_tracker){ .address = address, .nonce = nonce, .nonce_live_until = nonce_lu,
                     .mapped = true, .source = source, .root_frame = (long)m->n - 1 };
  if (!(t->nodes = malloc(sizeof *t->nodes))) return SCP_ERR_NOMEM;
  t->nodes[0] = (am_node){ .fn = r, .parent = 0 };
  t->nnodes = t->capnodes = 1;
  for (size_t i = 0; i < m->n; i++)
    if (!ms_push(t, i + 1 == m->n ? MS_ROOT : MS_UNMATCHED)) {
      free(t->ms);
      free(t->nodes);
      return SCP_ERR_NOMEM;
    }
  m->ntr++;
  return SCP_OK;
}

/* AuthorizedFunction::to_xdr then from_xdr, and the compare of the
 * function with its round trip (InvocationTracker::record_invocation on
 * an active tracker, a deeper frame of the same address): the XDR
 * (symbol, ScAddress, the args' Vec<ScVal>), back from XDR (a new
 * ScAddress object, the symbol, the args' host values) and the compare; a
 * create-contract function: the args' clone and Compare<CreateContract
 * ArgsV2> (the preimage, the executable, each constructor arg's
 * Compare<ScVal>). */
static int record_roundtrip(scp_host *h, const am_entry *e, const uint64_t *args, uint32_t n) {
  if (e->kind != AF_CONTRACT) {
    /* CreateContractHostFn: to_xdr clones the args (V2), from_xdr moves
     * them back; Compare<CreateContractArgsV2>: the preimage MemCmp(80),
     * the executable MemCmp(72), then the constructor args' Vec<ScVal>
     * element by element (Compare<ScVal>: equal values, so every one is
     * compared; the slice compare itself charges nothing) */
    int rc = e->clone_args(h, e->ctx);
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCmp, SIZE_CONTRACT_ID_PREIMAGE);
    if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCmp, SIZE_CONTRACT_EXECUTABLE);
    for (uint32_t i = 0; rc == SCP_OK && i < e->nctor; i++) {
      uint8_t *img = NULL;
      size_t len;
      int ord = 0;
      rc = scp_host_val_to_xdr_raw(h, e->ctor[i], &img, &len);
      if (rc == SCP_OK) rc = scp_storage_scval_cmp(h, img, img, &ord);
      free(img);
    }
    return rc;
  }
  const scp_frame *f = &h->frames[e->hdepth];
  size_t fl = strlen(f->fn);
  uint64_t small = 0;
  bool small_sym = scp_val_symbol_small((const uint8_t *)f->fn, fl, &small);
  int rc = SCP_OK;
  /* to_xdr: scsymbol_from_symbol (an object: visit + ScSymbol clone) */
  if (!small_sym) {
    rc = scp_host_charge(h, SCP_COST_VisitObject, -1);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCSYMBOL);
    if (rc == SCP_OK) rc = scp_host_charge_alloc(h, fl, 1);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, fl, 1);
  }
  const scp_hobj *a;
  if (rc == SCP_OK) rc = scp_host_visit(h, e->addr, &a);   /* scaddress_from_address */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc != SCP_OK) return rc;
  uint8_t enc[33];
  memcpy(enc, a->u.bytes, 33);
  /* vals_to_scval_vec: metered_collect, then from_host_val of each */
  rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, n, SIZE_RESULT_SCVAL);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, SIZE_RESULT_SCVAL);
  uint8_t **img = calloc(n + 1, sizeof *img);
  size_t *imglen = calloc(n + 1, sizeof *imglen);
  uint64_t *back = calloc(n + 1, sizeof *back);
  if (!img || !imglen || !back) rc = SCP_ERR_NOMEM;
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++) {
    rc = scp_host_from_host_val_charges(h, args[i]);
    if (rc == SCP_OK) rc = scp_host_val_to_xdr_raw(h, args[i], &img[i], &imglen[i]);
  }
  /* from_xdr: add_host_object(ScAddress), Symbol::try_from_val (an
   * object: a new Symbol), scvals_to_val_vec */
  uint64_t addr2 = 0, sym2 = small;
  if (rc == SCP_OK) {
    scp_hobj o = { .tag = SCP_TAG_ADDRESS_OBJ, .len = 33 };
    if (!(o.u.bytes = malloc(33))) rc = SCP_ERR_NOMEM;
    else {
      memcpy(o.u.bytes, enc, 33);
      rc = scp_host_add_obj(h, &o, &addr2);
    }
  }
  if (rc == SCP_OK && !small_sym)
    rc = scp_host_memobj_new_from_slice(h, SCP_TAG_SYMBOL_OBJ, (const uint8_t *)f->fn,
                                        (uint32_t)fl, &sym2);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, n, SIZE_RESULT_VAL);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n, SIZE_RESULT_VAL);
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++)
    rc = scp_host_scval_to_val(h, img[i], imglen[i], &back[i]);
  /* Compare<ContractFunction>: address, function name, args (Vec<Val>
   * element by element; all equal) */
  int ord = 0;
  if (rc == SCP_OK) rc = scp_host_compare(h, e->addr, addr2, &ord);
  /* two Symbol objects with the same text: the checked obj_cmp's visits
   * (2 arguments, 2 objects) and MemCmp(len); small ones compare free */
  for (int k = 0; rc == SCP_OK && !ord && !small_sym && k < 4; k++)
    rc = scp_host_charge(h, SCP_COST_VisitObject, -1);
  if (rc == SCP_OK && !ord && !small_sym) rc = scp_host_charge(h, SCP_COST_MemCmp, (int64_t)fl);
  for (uint32_t i = 0; rc == SCP_OK && !ord && i < n; i++)
    rc = scp_host_compare(h, args[i], back[i], &ord);
  for (uint32_t i = 0; img && i < n; i++) free(img[i]);
  free(img);
  free(imglen);
  free(back);
  return rc;
}

static int record_invocation(scp_host *h, scp_auth_mgr *m, size_t ti, const uint64_t *args,
                             uint32_t n) {
  if (frame_matched(&m->tr[ti]))
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_EXISTING_VALUE, "frame is already authorized");
  int rc = record_roundtrip(h, &m->stack[m->n - 1], args, n);
  if (rc != SCP_OK) return rc;
  /* last_authorized_invocation_mut: the deepest matched node below this
   * frame is the parent; the new node is pushed as its last child */
  am_tracker *t = &m->tr[ti];
  uint32_t parent = 0;
  for (size_t i = t->nms - 1; i-- > 0;)
    if (t->ms[i] != MS_UNMATCHED) {
      parent = t->ms[i] - 1;
      break;
    }
  const am_root *r;
  rc = keep_fn(h, m, args, n, &r);
  if (rc != SCP_OK) return rc;
  if (!scp_grow(&t->nodes, &t->capnodes, t->nnodes + 1, sizeof *t->nodes)) return SCP_ERR_NOMEM;
  t->nodes[t->nnodes] = (am_node){ .fn = r, .parent = parent };
  t->ms[t->nms - 1] = (uint32_t)++t->nnodes;
  return SCP_OK;
}

static int require_recording(scp_host *h, scp_auth_mgr *m, uint64_t address, const uint64_t *args,
                             uint32_t n) {
  /* the tracker made for this very object, while it is active */
  for (size_t i = 0; i < m->ntr; i++) {
    am_tracker *t = &m->tr[i];
    if (!t->mapped || t->address != address) continue;
    if (has_matched(t)) return record_invocation(h, m, i, args, n);
    t->mapped = false;
    break;
  }
  /* any active tracker of an equal address not matched in this frame */
  for (size_t i = 0; i < m->ntr; i++) {
    int ord = 1;
    int rc = scp_host_compare(h, m->tr[i].address, address, &ord);
    if (rc != SCP_OK) return rc;
    if (ord) continue;
    if (has_matched(&m->tr[i]) && !frame_matched(&m->tr[i]))
      return record_invocation(h, m, i, args, n);
  }
  /* disable_non_root_auth: a new tree must start at the root frame
   * (is_invoker_contract's compares pick the message) */
  if (h->opts.auth_disable_non_root && m->n != 1) {
    for (size_t i = 0; i + 1 < m->n; i++) {
      if (m->stack[i].kind != AF_CONTRACT) continue;
      int ord = 1;
      int rc = scp_host_compare(h, m->stack[i].addr, address, &ord);
      if (rc != SCP_OK) return rc;
      if (!ord)
        return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_ACTION,
                            "[recording authorization only] encountered unauthorized call for a "
                            "contract earlier in the call stack, make sure that you have called "
                            "`authorize_as_current_contract()` with the appropriate arguments for "
                            "it.");
    }
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_ACTION,
                        "[recording authorization only] encountered authorization not tied to "
                        "the root contract invocation for an address. Use `require_auth()` in "
                        "the top invocation or enable non-root authorization.");
  }
  return new_tracker(h, m, address, args, n);
}

int scp_auth_mgr_require_auth(scp_host *h, uint64_t address, const uint64_t *args, uint32_t nargs) {
  scp_auth_mgr *m = h->am;
  if (!m || !m->n)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INTERNAL_ERROR,
                        "unexpected require_auth outside of valid frame");
  const am_entry *top = &m->stack[m->n - 1];
  /* to_authorized_function: the Symbol's clone, or the create args' */
  int rc = top->kind == AF_CONTRACT ? scp_host_charge_copy(h, 1, SIZE_SYMBOL)
                                    : top->clone_args(h, top->ctx);
  if (rc != SCP_OK) return rc;
  /* maybe_check_invoker_contract_auth: the direct invoker, then the
   * invoker-contract trackers (host_auth_enf.c) */
  if (m->n >= 2 && m->stack[m->n - 2].kind == AF_CONTRACT) {
    int ord = 1;
    rc = scp_host_compare(h, m->stack[m->n - 2].addr, address, &ord);
    if (rc != SCP_OK || ord == 0) return rc;
  }
  if (m->n >= 2 && scp_auth_enf_invoker_count(h)) {
    bool ok = false;
    rc = scp_auth_enf_check_invokers(h, address, top->kind == AF_CONTRACT ? top->addr : 0,
                               top->kind == AF_CONTRACT ? h->frames[top->hdepth].fn : "", args,
                               nargs, &ok);
    if (rc != SCP_OK || ok) return rc;
  }
  if (h->opts.auth_enforcing && scp_auth_enf_count(h))
    return scp_auth_enf_require(h, address, top->kind == AF_CONTRACT ? top->addr : 0,
                          top->kind == AF_CONTRACT ? h->frames[top->hdepth].fn : "", args, nargs);
  if (h->opts.auth_enforcing)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_ACTION,
                        "Unauthorized function call for address");
  return require_recording(h, m, address, args, nargs);
}

bool scp_auth_mgr_tracker_info(const scp_host *h, size_t i, scp_auth_mgr_tinfo *out) {
  if (!h->am || i >= h->am->ntr) return false;
  const am_tracker *t = &h->am->tr[i];
  *out = (scp_auth_mgr_tinfo){ .address = t->address, .source = t->source, .nonce = t->nonce,
                         .nonce_live_until = t->nonce_live_until, .nnodes = t->nnodes };
  return true;
}

bool scp_auth_mgr_tracker_node(const scp_host *h, size_t i, size_t k, scp_auth_mgr_tnode *out) {
  if (!h->am || i >= h->am->ntr || k >= h->am->tr[i].nnodes) return false;
  const am_node *n = &h->am->tr[i].nodes[k];
  *out = (scp_auth_mgr_tnode){ .is_contract_fn = n->fn->kind == AF_CONTRACT, .contract = n->fn->addr,
                         .fn = n->fn->fn, .args = n->fn->args, .nargs = n->fn->nargs,
                         .parent = n->parent, .create = n->fn->create };
  return true;
}

const scp_create_args *scp_auth_mgr_top_create(const scp_host *h) {
  const scp_auth_mgr *m = h->am;
  if (!m || !m->n || m->stack[m->n - 1].kind != AF_CREATE) return NULL;
  return m->stack[m->n - 1].ctx;
}
