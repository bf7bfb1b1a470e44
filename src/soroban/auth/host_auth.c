/*
 * host_auth.c — the authorization host functions: require_auth /
 * require_auth_for_args, authorize_as_curr_contract, the __check_auth-only
 * delegate_account_auth and get_delegated_signers_for_current_auth_check,
 * create_contract's deployer auth, and the records the report lists.  It
 * takes the arguments and hands them to the manager (host_auth_mgr.c);
 * enforcing mode's signed entries are host_auth_enf.c's.  Reference:
 * rs-soroban-env v28 host.rs and auth.rs; each function names its part.
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
  SIZE_VAL = 8, SIZE_SYMBOL = 8,
  SIZE_INVOKER_TRACKER = 264   /* InvokerContractAuthorizationTracker */
};

static const char CHECK_AUTH_FN[] = "__check_auth";

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

/* ---- require_auth ------------------------------------------------------------ */

/* AuthorizationManager::require_auth (host_auth_mgr.c), then the record
 * the report lists.  Two modes (scp_host_opts.auth_enforcing): recording
 * ("mock all auths", the default), the reference's recording manager with
 * its charges, each accepted require_auth also recorded, and the emulated
 * authentication when the last frame pops (host_auth_emul.c); enforcing
 * with no entries (the reference test host's default), where the direct
 * invoker rule passes and anything else fails with Error(Auth,
 * InvalidAction). */
static int require(scp_host *h, uint64_t address, uint64_t rec_args, const uint64_t *args,
                   uint32_t n) {
  int rc = scp_auth_mgr_require_auth(h, address, args, n);
  /* listed in both modes when entries are set (enforcing without them,
   * only the direct invoker passes) */
  return rc == SCP_OK && (!h->opts.auth_enforcing || scp_auth_enf_count(h))
             ? record_auth(h, address, rec_args)
             : rc;
}

/* ---- create_contract's deployer auth (lifecycle.rs create_contract_internal) -- */

/* the frame's function: CreateContractArgsV2::metered_clone
 * (host_auth_create.c) */
static int charge_create_args_clone(scp_host *h, const void *p) {
  return scp_auth_create_clone_charges(h, p);
}

/* The deployer's auth, for every deployer (create_contract_internal always
 * has one here): the args clone, push_create_contract_host_fn_frame
 * (Vec<CreateContractArgsV2> bulk init of 1, a tracker frame per account
 * tracker), then require_auth with no args (the second args clone, the
 * direct invoker -- the calling contract -- compared with the deployer;
 * otherwise enforcing fails, recording records a tracker).  Checked against
 * the reference: in test__storage__test_large_instance_key.json steps 6 ->
 * 8 (an account deployer that is the source account) the auth part is
 * 2 x 540 + 565 CPU / 2 x 16 + 192 B plus source_account_address (AccountId
 * clone 46, HostObject alloc 442 CPU / 80 B) = 2,133 CPU / 304 B.
 * A calling frame pushed without the auth manager's push (only unit tests
 * do that) is left uncharged, as before.  The frame stays pushed over the
 * constructor (its invoker is this frame, not the deploying contract);
 * scp_auth_pop_create pops it. */
int scp_auth_push_create(scp_host *h, uint64_t deployer, const uint8_t addr[33],
                          const uint8_t salt[32], const uint64_t *ctor, uint32_t nctor,
                          const scp_executable *ex, bool *pushed) {
  *pushed = false;
  if (!h->nframes || !scp_auth_mgr_frame_address(h, h->nframes - 1)) return SCP_OK;
  /* the frame's CreateContractArgsV2 (ctor borrowed: the caller's, live
   * over the frame; the entry frees the struct at its pop) */
  scp_create_args *c = malloc(sizeof *c);
  if (!c) return SCP_ERR_NOMEM;
  *c = (scp_create_args){ .ex = *ex, .ctor = (uint64_t *)ctor, .nctor = nctor };
  memcpy(c->deployer, addr, 33);
  memcpy(c->salt, salt, 32);
  size_t depth = scp_auth_mgr_depth(h);
  int rc = charge_create_args_clone(h, c);
  if (rc == SCP_OK) rc = scp_auth_mgr_push_create(h, charge_create_args_clone, c, ctor, nctor);
  *pushed = scp_auth_mgr_depth(h) > depth;   /* then the entry owns c */
  if (!*pushed) free(c);
  return rc == SCP_OK ? require(h, deployer, SCP_VAL_VOID, NULL, 0) : rc;
}

void scp_auth_pop_create(scp_host *h) { scp_auth_mgr_pop(h); }

HOSTFN(require_auth) {
  *ret = SCP_VAL_VOID;
  if (!scp_host_in_vm(h))
    return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INTERNAL_ERROR,
                        "require_auth is not suppported for host fns");
  /* the frame's args: Vec<Val>::metered_clone */
  const scp_frame *f = &h->frames[h->nframes - 1];
  uint32_t n = f->nargs;
  uint64_t *args = malloc((n ? n : 1) * sizeof *args);
  if (!args) return SCP_ERR_NOMEM;
  if (n) memcpy(args, f->args, n * sizeof *args);
  int rc = scp_host_charge_bulk_init(h, n, SIZE_VAL);
  if (rc == SCP_OK) rc = require(h, a[0], SCP_VAL_VOID, args, n);
  free(args);
  return rc;
}

/* The args' to_vec; outside any contract frame Error(Auth, InternalError)
 * after the args clone, in both modes. */
HOSTFN(require_auth_for_args) {
  *ret = SCP_VAL_VOID;
  /* visit_obj(args, HostVec::to_vec): the Vec<Val> clone */
  const scp_hobj *v;
  int rc = scp_host_visit(h, a[1], &v);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, v->len, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  uint32_t n = v->len;
  uint64_t *args = malloc((n ? n : 1) * sizeof *args);
  if (!args) return SCP_ERR_NOMEM;
  if (n) memcpy(args, v->u.vals, n * sizeof *args);
  rc = require(h, a[0], a[1], args, n);
  free(args);
  return rc;
}

/* For native callers (the Stellar Asset Contract): address.require_auth()
 * when args is Void (the running frame's args, as require_auth), else
 * address.require_auth_for_args(args) -- the host functions' bodies,
 * without the dispatch-level argument checks. */
int scp_auth_require(scp_host *h, uint64_t address, uint64_t args) {
  uint64_t a[2] = { address, args }, ret;
  return args == SCP_VAL_VOID ? scp_hf_require_auth(h, a, &ret)
                              : scp_hf_require_auth_for_args(h, a, &ret);
}

/* ---- authorize_as_curr_contract ---------------------------------------------- */

/* add_invoker_contract_auth_with_curr_contract_as_invoker: the entries'
 * to_vec, the tracker Vec's bulk init, then one tracker per entry
 * (host_auth_enf.c). */
HOSTFN(authorize_as_curr_contract) {
  *ret = SCP_VAL_VOID;
  const scp_hobj *v;
  int rc = scp_host_visit(h, a[0], &v);
  if (rc == SCP_OK) rc = scp_host_charge_bulk_init(h, v->len, SIZE_VAL);
  if (rc != SCP_OK) return rc;
  uint32_t n = v->len;
  uint64_t *entries = malloc((n ? n : 1) * sizeof *entries);
  if (!entries) return SCP_ERR_NOMEM;
  if (n) memcpy(entries, v->u.vals, n * sizeof *entries);
  rc = scp_host_charge_bulk_init(h, n, SIZE_INVOKER_TRACKER);
  if (rc == SCP_OK) rc = scp_auth_enf_add_invokers(h, entries, n);
  free(entries);
  return rc;
}

/* ---- __check_auth-only functions ---------------------------------------------- */

/* Inside a custom account's __check_auth (called by host_auth_enf.c's
 * authentication) these read the current authentication frame:
 * AddressWithDelegates credentials' delegated signers (host_auth_deleg.c)
 * are listed and authenticated with the frame's payload and context;
 * without delegates the list is empty and delegating fails with
 * Error(Auth, InvalidInput), as in the reference. */

/* ensure_check_auth_frame: the frame's function name (a Symbol clone),
 * compared with "__check_auth" by symbol_matches (a SymbolObject is
 * visited first; MemCmp of the shorter length).  True only inside an
 * authentication (a contract's __check_auth cannot be called directly). */
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
  if (n == m && !memcmp(fn, CHECK_AUTH_FN, m)) {
    /* with_current_authentication_frame */
    if (!scp_auth_enf_authenticating(h))
      return scp_host_err(h, SCP_ET_AUTH, SCP_EC_INTERNAL_ERROR,
                          "with_current_authentication_frame called with empty authentication "
                          "stack");
    return SCP_OK;
  }
  return scp_host_err(h, SCP_ET_CONTEXT, SCP_EC_INVALID_ACTION,
                      "%s host function can only be called from within `__check_auth`, but was "
                      "called within a different contract function", host_fn);
}

/* delegate_account_auth (auth.rs AuthorizationManager::
 * delegate_account_auth): in the current authentication frame, the
 * delegate with this address among the current signer's delegates
 * (try_push_delegated_auth_frame; none: Error(Auth, InvalidInput) "no
 * delegated signers were provided ..."), authenticated with the frame's
 * payload and context -- an account's signatures, or a contract's
 * __check_auth (the Symbol, call_n_internal with re-entry prohibited; its
 * result must be Void) --, then the frame popped.  A failure leaves the
 * match pushed: the caller's rollback restores it. */
HOSTFN(delegate_account_auth) {
  *ret = SCP_VAL_VOID;
  int rc = ensure_check_auth_frame(h, "delegate_account_auth");
  scp_auth_deleg *d = NULL;
  uint64_t payload = 0, ctx = 0, sig = 0, sym, r = SCP_VAL_VOID;
  if (rc == SCP_OK) rc = scp_auth_enf_current_auth(h, &d, &payload, &ctx);
  if (rc == SCP_OK && !d)
    rc = scp_host_err(h, SCP_ET_AUTH, SCP_EC_INVALID_INPUT,
                      "no delegated signers were provided, but delegate_account_auth was called "
                      "for address");
  if (rc == SCP_OK) rc = scp_auth_deleg_push(h, d, a[0], &sig);
  const scp_hobj *ao = NULL;
  if (rc == SCP_OK) rc = scp_host_visit(h, a[0], &ao);   /* scaddress_from_address */
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, 48);
  if (rc != SCP_OK) return rc;
  uint8_t addr[33];
  memcpy(addr, ao->u.bytes, 33);
  if (addr[0] == 0) {
    rc = scp_auth_emul_check_account(h, addr + 1, payload, sig);
  } else {
    uint64_t args[3] = { payload, sig, ctx };
    rc = scp_native_symbol(h, CHECK_AUTH_FN, &sym);
    if (rc == SCP_OK) rc = scp_host_call_internal_prohibited(h, addr + 1, CHECK_AUTH_FN, args, 3, &r);
    if (rc == SCP_OK && r != SCP_VAL_VOID)
      rc = scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "__check_auth did not return Void");
  }
  if (rc == SCP_OK) rc = scp_auth_enf_current_auth(h, &d, &payload, &ctx);
  if (rc == SCP_OK) scp_auth_deleg_pop(d);
  return rc;
}

/* get_delegated_signers_for_current_auth_check: the current signer's
 * delegates' addresses (a Vec rebuilt per push_back, then its object), or
 * Env vec_new when the credentials carry no delegates. */
HOSTFN(get_delegated_signers_for_current_auth_check) {
  (void)a;
  *ret = SCP_VAL_VOID;
  int rc = ensure_check_auth_frame(h, "get_delegated_signers_for_current_auth_check");
  scp_auth_deleg *d = NULL;
  uint64_t payload, ctx;
  if (rc == SCP_OK) rc = scp_auth_enf_current_auth(h, &d, &payload, &ctx);
  if (rc != SCP_OK) return rc;
  return d ? scp_auth_deleg_signers(h, d, ret) : scp_native_env0(h, "vec_new", ret);
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
