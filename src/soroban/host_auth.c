/*
 * host_auth.c — authorization: require_auth / require_auth_for_args, the
 * records the report lists, authorize_as_curr_contract and the
 * __check_auth-only host functions (delegate_account_auth,
 * get_delegated_signers_for_current_auth_check).
 *
 * rs-soroban-env v28: host.rs (the host functions), auth.rs
 * (AuthorizationManager::require_auth, maybe_check_invoker_contract_auth,
 * require_auth_enforcing / _recording,
 * add_invoker_contract_auth_with_curr_contract_as_invoker), host/frame.rs
 * (ensure_check_auth_frame), host/mem_helper.rs (symbol_matches).
 *
 * Two modes (scp_host_opts.auth_enforcing):
 *  - recording ("mock all auths", the default): every require_auth is
 *    accepted and recorded for the report.  The reference's recording
 *    manager also charges for its trackers (the nonce write through the
 *    storage, the tracker's frame pushes); that is NOT modelled yet, so
 *    require_auth charges nothing beyond dispatch in this mode.
 *  - enforcing with no authorization entries (the reference test host's
 *    default): exact.  The only way a require_auth passes is the direct
 *    invoker rule (the calling contract is the address); otherwise it fails
 *    with Error(Auth, InvalidAction), as the reference does with no
 *    account trackers.  require_auth (without args) needs the running
 *    frame's argument count, which the frame does not keep yet:
 *    unsupported in this mode.  Outside any contract frame
 *    require_auth_for_args fails with Error(Auth, InternalError) after the
 *    args clone in both modes.
 * create_contract's deployer auth (scp_auth_create_frame) is exact for a
 * contract deploying with its own address; other deployers stay uncharged.
 * authorize_as_curr_contract: an empty entry list is exact (it adds no
 * tracker); entries are unsupported.  __check_auth never runs here (no
 * enforcing entries, and recording mode does not call it), so the
 * __check_auth-only functions always take ensure_check_auth_frame's error.
 */
#include <stdio.h>
#include <string.h>

#include "soroban/host_fns_private.h"

enum {
  SIZE_VAL = 8, SIZE_SYMBOL = 8, SIZE_SCVAL = 96,
  SIZE_CREATE_ARGS_V2 = 176,   /* CreateContractArgsV2 (declared_size.rs) */
  SIZE_INVOKER_TRACKER = 264   /* InvokerContractAuthorizationTracker */
};

static const char CHECK_AUTH_FN[] = "__check_auth";

static int unsupported(scp_host *h, const char *what) {
  snprintf(h->errmsg, sizeof h->errmsg, "%s is not implemented yet", what);
  return SCP_ERR_UNSUPPORTED;
}

/* ---- recording ("mock all auths") ------------------------------------------ */

static int record_auth(scp_host *h, uint64_t address, uint64_t args) {
  if (!scp_grow(&h->auths, &h->capauths, h->nauths + 1, sizeof *h->auths)) return SCP_ERR_NOMEM;
  scp_auth_rec *r = &h->auths[h->nauths++];
  memset(r, 0, sizeof *r);
  r->address = address;
  r->args = args;
  if (h->nframes) {
    memcpy(r->contract_id, h->frames[h->nframes - 1].contract_id, 32);
    memcpy(r->fn, h->frames[h->nframes - 1].fn, sizeof r->fn);
  }
  return SCP_OK;
}

/* ---- enforcing, no authorization entries ------------------------------------ */

/* The ScAddress object AuthorizationManager::push_frame made for a
 * contract frame (scp_host_charge_push_context).  Any object with the same
 * content compares with the same charges, but never `other` itself: that
 * object is never handed to a contract, so the reference never takes
 * compare's free same-handle path.  0 when there is none (a frame pushed
 * without the auth manager's push). */
static uint64_t frame_address_obj(const scp_host *h, const uint8_t id[32], uint64_t other) {
  for (size_t i = 0; i < h->nobjs; i++) {
    const scp_hobj *o = &h->objs[i];
    uint64_t v = scp_val_object(SCP_TAG_ADDRESS_OBJ, ((uint32_t)i << 1) | 1);
    if (o->tag == SCP_TAG_ADDRESS_OBJ && o->len == 33 && o->u.bytes[0] == 1 &&
        !memcmp(o->u.bytes + 1, id, 32) && v != other)
      return v;
  }
  return 0;
}

/* AuthorizationManager::require_auth after the args are taken:
 * to_authorized_function (the function name's Symbol clone),
 * maybe_check_invoker_contract_auth (the direct invoker compared with the
 * address through obj_cmp; no invoker-contract trackers exist), then
 * require_auth_enforcing with no account trackers. */
static int require_enforcing(scp_host *h, uint64_t address) {
  if (!h->nframes)
    return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INTERNAL_ERROR,
                        "unexpected require_auth outside of valid frame");
  int rc = scp_host_charge_copy(h, 1, SIZE_SYMBOL);
  if (rc != SCP_OK) return rc;
  /* a constructor runs under create_contract's CreateContractHostFn auth
   * frame (lifecycle.rs create_contract_internal): its invoker is that
   * frame, not a contract, so nothing is compared */
  bool ctor = !strcmp(h->frames[h->nframes - 1].fn, "__constructor");
  if (h->nframes >= 2 && !ctor) {
    uint64_t inv = frame_address_obj(h, h->frames[h->nframes - 2].contract_id, address);
    if (!inv) return unsupported(h, "require_auth under a frame without the auth manager's push");
    int ord = 1;
    rc = scp_host_compare(h, inv, address, &ord);
    if (rc != SCP_OK) return rc;
    if (ord == 0) return SCP_OK;
  }
  return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_ACTION,
                      "Unauthorized function call for address");
}

/* ---- create_contract's deployer auth (lifecycle.rs create_contract_internal) -- */

/* CreateContractArgsV2::metered_clone: the struct, then its constructor
 * args' Vec<ScVal> (heap alloc + copy of nothing when empty). */
static int charge_create_args_clone(scp_host *h) {
  int rc = scp_host_charge_copy(h, 1, SIZE_CREATE_ARGS_V2);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 0, SIZE_SCVAL);
  return rc == SCP_OK ? scp_host_charge_copy(h, 0, SIZE_SCVAL) : rc;
}

/* The one case charged: a contract deploying with its own address
 * (deployer().with_current_contract) -- Wasm executable, no constructor
 * args, no account tracker yet (none exist in enforcing mode without
 * entries; in recording mode none before the first recorded require_auth).
 * Then, in both modes: the args clone, push_create_contract_host_fn_frame
 * (Vec<CreateContractArgsV2> bulk init of 1; no tracker frames), and
 * require_auth with no args: to_authorized_function's second args clone,
 * then maybe_check_invoker_contract_auth compares the deployer with the
 * direct invoker (the calling contract's frame) -- equal, so it passes
 * before the mode matters; pop_frame without a snapshot is free.  The
 * clone + frame push pieces are the reference's: in
 * test__storage__test_large_instance_key.json steps 6 -> 8 (an account
 * deployer that is the source account) the auth part is exactly
 * 2 x 540 + 565 CPU / 2 x 16 + 192 B plus source_account_address (AccountId
 * clone 46, HostObject alloc 442 CPU / 80 B) = 2,133 CPU / 304 B.  Every
 * other deployer needs a recording tracker (a nonce written through the
 * storage) or a source account, which are not modelled: uncharged, as
 * documented. */
int scp_auth_create_frame(scp_host *h, uint64_t deployer, const uint8_t addr[33], uint32_t nctor,
                          bool wasm) {
  if (!h->nframes || !wasm || nctor || addr[0] != 1) return SCP_OK;
  if (!h->opts.auth_enforcing && h->nauths) return SCP_OK;
  if (memcmp(addr + 1, h->frames[h->nframes - 1].contract_id, 32)) return SCP_OK;
  uint64_t inv = frame_address_obj(h, addr + 1, deployer);
  if (!inv) return SCP_OK;
  int rc = charge_create_args_clone(h);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 1, SIZE_CREATE_ARGS_V2);
  if (rc == SCP_OK) rc = charge_create_args_clone(h);
  int ord = 1;
  if (rc == SCP_OK) rc = scp_host_compare(h, inv, deployer, &ord);
  return rc;
}

HOSTFN(require_auth) {
  *ret = SCP_VAL_VOID;
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                        "require_auth is not suppported for host fns");
  if (h->opts.auth_enforcing)
    return unsupported(h, "require_auth in enforcing auth mode (the frame's argument count)");
  return record_auth(h, a[0], SCP_VAL_VOID);
}

HOSTFN(require_auth_for_args) {
  *ret = SCP_VAL_VOID;
  if (!h->opts.auth_enforcing && scp_host_in_vm(h)) return record_auth(h, a[0], a[1]);
  /* visit_obj(args, HostVec::to_vec): the Vec<Val> clone; outside a frame
   * both modes then fail with Error(Auth, InternalError) */
  const scp_hobj *args;
  int rc = scp_host_visit(h, a[1], &args);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, args->len, SIZE_VAL);
  return rc == SCP_OK ? require_enforcing(h, a[0]) : rc;
}

/* ---- authorize_as_curr_contract ---------------------------------------------- */

/* add_invoker_contract_auth_with_curr_contract_as_invoker: the entries'
 * to_vec, the tracker Vec's bulk init, then one tracker per entry. */
HOSTFN(authorize_as_curr_contract) {
  *ret = SCP_VAL_VOID;
  const scp_hobj *v;
  int rc = scp_host_visit(h, a[0], &v);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, v->len, SIZE_VAL);
  if (rc == SCP_OK && v->len) return unsupported(h, "authorize_as_curr_contract with entries");
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, 0, SIZE_INVOKER_TRACKER);
  return rc;
}

/* ---- __check_auth-only functions ---------------------------------------------- */

/* ensure_check_auth_frame: the frame's function name (a Symbol clone),
 * compared with "__check_auth" by symbol_matches (a SymbolObject is
 * visited first; MemCmp of the shorter length).  Never true here: a
 * contract's __check_auth cannot be called directly and the host never
 * calls it (see the head comment). */
static int ensure_check_auth_frame(scp_host *h, const char *host_fn) {
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                        "ensure_check_auth_frame is not supported for host fns");
  const char *fn = h->frames[h->nframes - 1].fn;
  size_t n = strlen(fn), m = sizeof CHECK_AUTH_FN - 1;
  uint64_t small;
  int rc = scp_host_charge_copy(h, 1, SIZE_SYMBOL);
  if (rc == SCP_OK && !scp_val_symbol_small((const uint8_t *)fn, n, &small))
    rc = scp_host_charge(h, SCP_COST_VisitObject, -1);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_MemCmp, (int64_t)(n < m ? n : m));
  if (rc != SCP_OK) return rc;
  if (n == m && !memcmp(fn, CHECK_AUTH_FN, m))
    return unsupported(h, "running __check_auth");
  return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION,
                      "%s host function can only be called from within `__check_auth`, but was "
                      "called within a different contract function", host_fn);
}

HOSTFN(delegate_account_auth) {
  *ret = SCP_VAL_VOID;
  return ensure_check_auth_frame(h, "delegate_account_auth");
}

HOSTFN(get_delegated_signers_for_current_auth_check) {
  (void)a;
  *ret = SCP_VAL_VOID;
  return ensure_check_auth_frame(h, "get_delegated_signers_for_current_auth_check");
}

/* ---- the records, for the report ---------------------------------------------- */

size_t scp_host_auth_count(const scp_host *h) { return h->nauths; }

void scp_host_auth_format(scp_host *h, size_t i, scp_buf *b) {
  if (i >= h->nauths) return;
  const scp_auth_rec *r = &h->auths[i];
  const scp_hobj *a = scp_host_obj(h, r->address);
  char sk[57];
  if (a && a->tag == SCP_TAG_ADDRESS_OBJ && a->u.bytes[0] <= 1) {
    scp_host_address_strkey(a->u.bytes, sk);
    scp_buf_puts(b, sk);
  } else {
    scp_host_val_format(h, r->address, b);
  }
  scp_host_contract_strkey(r->contract_id, sk);
  scp_buf_printf(b, " authorized %s(", r->fn[0] ? r->fn : "?");
  if (r->args != SCP_VAL_VOID) {
    const scp_hobj *o = scp_host_obj(h, r->args);
    for (uint32_t k = 0; o && k < o->len; k++) {
      if (k) scp_buf_puts(b, ", ");
      scp_host_val_format(h, o->u.vals[k], b);
    }
  } else {
    scp_buf_puts(b, "all args");
  }
  scp_buf_printf(b, ") of %s", sk);
}

int scp_host_set_frame_fn(scp_host *h, const char *name) {
  if (!h->nframes) return SCP_ERR_INTERNAL;
  snprintf(h->frames[h->nframes - 1].fn, sizeof h->frames[0].fn, "%s", name);
  return SCP_OK;
}
