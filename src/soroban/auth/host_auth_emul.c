/*
 * host_auth_emul.c — recording mode's emulated authentication, run when
 * the last context is popped: what simulation charges for the signature
 * checks enforcing mode would make.  The signature payload, the auth
 * contexts and the account check are shared with enforcing mode
 * (host_auth_enf.c).  Reference: rs-soroban-env v28.0.2 auth.rs
 * (maybe_emulate_authentication, AccountAuthorizationTracker) and
 * builtin_contracts/account_contract.rs; each function names its part.
 */
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soroban/fns/host_fns_private.h"
#include "soroban/auth/host_auth.h"
#include "soroban/core/host_lifecycle.h"
#include "soroban/core/host_xdrw.h"
#include "soroban/fns/host_native.h"
#include "soroban/core/host_account.h"

enum {
  SIZE_SCADDRESS = 48, SIZE_HASH = 32, SIZE_ACCOUNT_ID = 32, SIZE_LEDGER_KEY = 152,
  SIZE_SCSYMBOL = 24,
  SIZE_RESULT_VEC = 24 + 16, SIZE_RESULT_SCVAL = 96 + 16,
  SIZE_RESULT_INVOCATION = 200 + 16,   /* Result<SorobanAuthorizedInvocation, HostError> */
  ENVELOPE_TYPE_SOROBAN_AUTHORIZATION = 9, ENVELOPE_TYPE_SOROBAN_AUTHORIZATION_WITH_ADDRESS = 10,
  MAX_ACCOUNT_SIGNATURES = 20, CONTRACT_AUTHENTICATION_ERROR = 5,
  THRESHOLD_MASTER_WEIGHT = 0, THRESHOLD_MED = 2
};

/* scaddress_from_address: the object's visit, the ScAddress clone. */
static int scaddress(scp_host *h, uint64_t addr, uint8_t out[33]) {
  const scp_hobj *a;
  int rc = scp_host_visit(h, addr, &a);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCADDRESS);
  if (rc != SCP_OK) return rc;
  if (a->tag != SCP_TAG_ADDRESS_OBJ || a->len != 33 || a->u.bytes[0] > 1)
    return scp_host_err(h, SCP_ET_OBJECT, SCP_EC_INTERNAL_ERROR,
                        "encountered unexpected ScAddress type");
  memcpy(out, a->u.bytes, 33);
  return SCP_OK;
}

/* ---- the signature payload's XDR ----------------------------------------- */

/* The tracker's tree: its nodes in pre-order. */
typedef struct tree {
  scp_auth_mgr_tnode *n;
  size_t len;
} tree;

static int tree_load(scp_host *h, size_t ti, const scp_auth_mgr_tinfo *t, tree *out) {
  out->len = t->nnodes;
  out->n = calloc(t->nnodes + 1, sizeof *out->n);
  if (!out->n) return SCP_ERR_NOMEM;
  for (size_t k = 0; k < t->nnodes; k++) scp_auth_mgr_tracker_node(h, ti, k, &out->n[k]);
  return SCP_OK;
}

/* AuthorizedInvocation::to_xdr(exhausted_sub_invocations_only = false)
 * of node k: the function (scsymbol_from_symbol, scaddress_from_address,
 * vals_to_scval_vec), then the children's metered_collect and each
 * child's to_xdr.  Charges only. */
static int invocation_to_xdr(scp_host *h, const tree *tr, size_t k) {
  const scp_auth_mgr_tnode *n = &tr->n[k];
  size_t fl = n->is_contract_fn ? strlen(n->fn) : 0;
  uint64_t small;
  int rc = SCP_OK;
  if (!n->is_contract_fn) {
    /* CreateContractHostFn: the args' metered_clone (host_auth_create.c) */
    rc = scp_auth_create_clone_charges(h, n->create);
    goto subs;
  }
  if (!scp_val_symbol_small((const uint8_t *)n->fn, fl, &small)) {   /* a Symbol object */
    rc = scp_host_charge(h, SCP_COST_VisitObject, -1);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_SCSYMBOL);
    if (rc == SCP_OK) rc = scp_host_charge_alloc(h, fl, 1);
    if (rc == SCP_OK) rc = scp_host_charge_copy(h, fl, 1);
  }
  uint8_t contract[33];
  if (rc == SCP_OK) rc = scaddress(h, n->contract, contract);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, n->nargs, SIZE_RESULT_SCVAL);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, n->nargs, SIZE_RESULT_SCVAL);
  for (uint32_t i = 0; rc == SCP_OK && i < n->nargs; i++)
    rc = scp_host_from_host_val_charges(h, n->args[i]);
subs:;
  uint32_t nsub = 0;
  for (size_t c = k + 1; c < tr->len; c++) nsub += tr->n[c].parent == k;
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, 1, SIZE_RESULT_VEC);
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, nsub, SIZE_RESULT_INVOCATION);
  if (rc == SCP_OK) rc = scp_host_charge_copy(h, nsub, SIZE_RESULT_INVOCATION);
  for (size_t c = k + 1; rc == SCP_OK && c < tr->len; c++)
    if (tr->n[c].parent == k) rc = invocation_to_xdr(h, tr, c);
  return rc;
}

/* The SorobanAuthorizedInvocation writes of node k (one ValSer each). */
static int write_invocation(scp_host *h, scp_xdrw *b, const tree *tr, size_t k) {
  const scp_auth_mgr_tnode *n = &tr->n[k];
  int rc = SCP_OK;
  if (!n->is_contract_fn) {
    /* SorobanAuthorizedFunction::CreateContractV2HostFn */
    uint8_t *img = NULL;
    size_t len = 0;
    rc = scp_auth_create_xdr(h, n->create, true, &img, &len);
    if (rc == SCP_OK) rc = scp_xdrw_append(b, img, len);
    free(img);
    goto subs;
  }
  const scp_hobj *a = scp_host_obj(h, n->contract);
  if (!a || a->tag != SCP_TAG_ADDRESS_OBJ || a->len != 33) return SCP_ERR_INTERNAL;
  rc = scp_xdrw_u32(h, b, 0);   /* SorobanAuthorizedFunction::ContractFn */
  if (rc == SCP_OK) rc = scp_xdrw_address(h, b, a->u.bytes);
  if (rc == SCP_OK) rc = scp_xdrw_var(h, b, n->fn, (uint32_t)strlen(n->fn));
  if (rc == SCP_OK) rc = scp_xdrw_u32(h, b, n->nargs);
  for (uint32_t i = 0; rc == SCP_OK && i < n->nargs; i++) {
    uint8_t *img = NULL;
    size_t len = 0;
    rc = scp_host_val_to_xdr_writes(h, n->args[i], &img, &len);
    if (rc == SCP_OK) rc = scp_xdrw_append(b, img, len);
    free(img);
  }
subs:;
  uint32_t nsub = 0;
  for (size_t c = k + 1; c < tr->len; c++) nsub += tr->n[c].parent == k;
  if (rc == SCP_OK) rc = scp_xdrw_u32(h, b, nsub);
  for (size_t c = k + 1; rc == SCP_OK && c < tr->len; c++)
    if (tr->n[c].parent == k) rc = write_invocation(h, b, tr, c);
  return rc;
}

/* AccountAuthorizationTracker::get_signature_payload; the SHA-256 in
 * hash.  with_address (AddressV2 credentials, and recording mode's
 * trackers): HashIdPreimage::SorobanAuthorizationWithAddress (envelope
 * type 10, the address after the expiration ledger, as the XDR orders
 * it); else the legacy SorobanAuthorization (9), with no address and no
 * scaddress_from_address.  Pinned by test__stellar_asset_contract__test_
 * auth_rejected_for_incorrect_nonce.json: 21,280 CPU / 5,962 B with the
 * address (steps 153 -> 154), 18,311 / 5,116 without (247 -> 248), up to
 * the payload's Bytes. */
static int signature_payload(scp_host *h, const scp_auth_emul_in *a, const tree *tr, uint8_t hash[32]) {
  int rc = scp_host_charge_copy(h, 1, SIZE_HASH);   /* network_id.metered_clone */
  if (rc == SCP_OK) rc = invocation_to_xdr(h, tr, 0);   /* root_invocation_to_xdr */
  uint8_t self[33];
  if (rc == SCP_OK && a->with_address) rc = scaddress(h, a->address, self);
  if (rc != SCP_OK) return rc;
  /* metered_hash_xdr(HashIdPreimage::...) */
  scp_xdrw b = { .charge = true };
  uint8_t n8[8];
  scp_put_be64(n8, (uint64_t)a->nonce);
  rc = scp_xdrw_u32(h, &b, a->with_address ? ENVELOPE_TYPE_SOROBAN_AUTHORIZATION_WITH_ADDRESS
                                          : ENVELOPE_TYPE_SOROBAN_AUTHORIZATION);
  if (rc == SCP_OK) rc = scp_xdrw_put(h, &b, h->opts.network_id, 32);
  if (rc == SCP_OK) rc = scp_xdrw_put(h, &b, n8, 8);
  if (rc == SCP_OK) rc = scp_xdrw_u32(h, &b, a->live_until);
  if (rc == SCP_OK && a->with_address) rc = scp_xdrw_address(h, &b, self);
  if (rc == SCP_OK) rc = write_invocation(h, &b, tr, 0);
  if (rc == SCP_OK) rc = scp_host_charge(h, SCP_COST_ComputeSha256Hash, (int64_t)b.n);
  if (rc == SCP_OK) SHA256(b.p, b.n, hash);
  free(b.p);
  return rc;
}

/* convert_to_auth_context_val: vec_new, then per node in pre-order
 * AuthorizationContext::Contract({args, contract, fn_name}) pushed. */
static int auth_context(scp_host *h, const tree *tr, uint64_t *out) {
  uint64_t ctxs;
  int rc = scp_native_env0(h, "vec_new", &ctxs);
  for (size_t k = 0; rc == SCP_OK && k < tr->len; k++) {
    const scp_auth_mgr_tnode *n = &tr->n[k];
    uint64_t args = 0, fnsym = 0, map = 0, ctx = 0, tag = 0;
    if (!n->is_contract_fn) {   /* CreateContract[WithCtor]HostFn (host_auth_create.c) */
      rc = scp_auth_create_context(h, n->create, &ctx);
      if (rc == SCP_OK) rc = scp_native_env2(h, "vec_push_back", ctxs, ctx, &ctxs);
      continue;
    }
    rc = scp_native_vec(h, n->args, n->nargs, &args);
    if (rc != SCP_OK) return rc;
    size_t fl = strlen(n->fn);
    if (!scp_val_symbol_small((const uint8_t *)n->fn, fl, &fnsym)) {
      /* the function's Symbol object already exists in the reference (the
       * frame's): made here uncharged */
      scp_budget *real = h->budget, shadow;
      scp_budget_init(&shadow, UINT64_MAX, UINT64_MAX);
      h->budget = &shadow;
      rc = scp_host_memobj_new_from_slice(h, SCP_TAG_SYMBOL_OBJ, (const uint8_t *)n->fn,
                                          (uint32_t)fl, &fnsym);
      h->budget = real;
      if (rc != SCP_OK) return rc;
    }
    static const char *const keys[] = { "args", "contract", "fn_name" };
    uint64_t vals[3] = { args, n->contract, fnsym };
    rc = scp_native_map_new(h, keys, vals, 3, &map);
    if (rc == SCP_OK) rc = scp_native_symbol(h, "Contract", &tag);
    uint64_t pair[2] = { tag, map };
    if (rc == SCP_OK) rc = scp_native_vec(h, pair, 2, &ctx);
    if (rc == SCP_OK) rc = scp_native_env2(h, "vec_push_back", ctxs, ctx, &ctxs);
  }
  if (rc == SCP_OK) *out = ctxs;
  return rc;
}

/* The parts of an account entry's XDR image the signature check reads:
 * its key, the thresholds, the ed25519 signers with their weights. */
typedef struct acct_view {
  uint8_t key[32];
  uint8_t thr[4];
  uint32_t nsig;
  const uint8_t *sig;   /* first Signer */
  const uint8_t *end;
} acct_view;

static void account_view(const uint8_t *p, size_t len, acct_view *v) {
  memset(v, 0, sizeof *v);
  v->end = p + len;
  if (len >= 36) memcpy(v->key, p + 4, 32);
  size_t off = 56;
  if (len >= off + 4) off += scp_be32(p + off) ? 40 : 4;   /* inflationDest */
  off += 4;                                              /* flags */
  if (len >= off + 4) off += 4 + ((scp_be32(p + off) + 3) & ~3u);   /* homeDomain */
  if (len >= off + 4) memcpy(v->thr, p + off, 4);
  off += 4;
  if (len >= off + 4) {
    v->nsig = scp_be32(p + off);
    v->sig = p + off + 4;
  }
}

/* get_signer_weight_from_account (data_helper.rs): the Uint256 clone, the
 * master key's weight, else an ed25519 signer's (clamped to 255), else 0. */
static int signer_weight(scp_host *h, const acct_view *v, const uint8_t pk[32], uint32_t *w) {
  int rc = scp_host_charge_copy(h, 1, SIZE_HASH);
  if (rc != SCP_OK) return rc;
  *w = 0;
  if (!memcmp(v->key, pk, 32)) {
    *w = v->thr[THRESHOLD_MASTER_WEIGHT];
    return SCP_OK;
  }
  const uint8_t *q = v->sig;
  for (uint32_t i = 0; q && i < v->nsig && q + 40 <= v->end; i++) {
    uint32_t kind = scp_be32(q);
    const uint8_t *k = q + 4;
    q += 36;
    if (kind == 3 && q + 4 <= v->end) q += 4 + ((scp_be32(q) + 3) & ~3u);   /* signed payload */
    if (q + 4 > v->end) break;
    uint32_t weight = scp_be32(q);
    q += 4;
    if (kind == 0 && !memcmp(k, pk, 32)) {
      *w = weight > 255 ? 255 : weight;
      return SCP_OK;
    }
  }
  return SCP_OK;
}

/* load_account: Rc<LedgerKey>, the storage get, the AccountEntry clone
 * -- the Stellar Asset Contract's own (sac_account.c), one set of
 * charges for both. */
static int load_account(scp_host *h, const uint8_t key[32], acct_view *v) {
  scp_host_account a;
  const scp_sentry *e = NULL;
  int rc = scp_host_load_account(h, key, &a, &e);
  if (rc == SCP_OK) account_view(e->val, e->vallen, v);
  return rc;
}

static int auth_error(scp_host *h, const char *msg) {
  return scp_host_err(h, SCP_ET_CONTRACT, (scp_err_code)CONTRACT_AUTHENTICATION_ERROR, "%s", msg);
}

/* The signature check alone, in its own frame (auth:verify), so that a
 * profile shows what verification costs apart from the rest of
 * authentication. */
static int verify_ed25519(scp_host *h, uint64_t key, uint64_t payload, uint64_t sig) {
  uint64_t r;
  if (h->auth_hook) h->auth_hook(h->invoker_ctx, SCP_AUTH_VERIFY_ED25519, true);
  int rc = scp_native_env3(h, "verify_sig_ed25519", key, payload, sig, &r);
  if (h->auth_hook) h->auth_hook(h->invoker_ctx, SCP_AUTH_VERIFY_ED25519, false);
  return rc;
}

/* check_account_authentication (builtin_contracts/account_contract.rs):
 * the signatures' Vec (vec_len: more than 20 or none is Error(Contract,
 * AuthenticationError)), the account's load, then per signature:
 * vec_get, the AccountEd25519Signature struct (map_unpack_to_slice, both
 * BytesN lengths), the previous key's compare (keys strictly increasing),
 * verify_sig_ed25519, the key's to_array (bytes_copy_to_slice) and the
 * signer's weight (0: not a signer of the account); the weights' sum
 * against the medium threshold.  Checked against test__stellar_asset_
 * contract__test_classic_account_multisig_auth.json (see test_auth_enf.c). */
int scp_auth_emul_check_account(scp_host *h, const uint8_t key[32], uint64_t payload, uint64_t sigs) {
  uint64_t len, prev = 0;
  acct_view acct;
  if (scp_val_tag_of(sigs) != SCP_TAG_VEC_OBJ)
    return scp_host_err(h, SCP_ET_VALUE, SCP_EC_UNEXPECTED_TYPE, "signature is not a Vec");
  int rc = scp_native_env1(h, "vec_len", sigs, &len);
  if (rc != SCP_OK) return rc;
  uint32_t n = scp_val_major(len);
  if (n > MAX_ACCOUNT_SIGNATURES) return auth_error(h, "too many account signers");
  if (n == 0) return auth_error(h, "no account signatures found");
  rc = load_account(h, key, &acct);
  uint32_t weight = 0;
  for (uint32_t i = 0; rc == SCP_OK && i < n; i++) {
    static const char *const keys[] = { "public_key", "signature" };
    uint64_t sig, kv[2];
    uint8_t pk[32];
    rc = scp_native_env2(h, "vec_get", sigs, scp_val_u32(i), &sig);
    if (rc == SCP_OK) rc = scp_native_map_unpack(h, sig, keys, 2, kv);
    if (rc == SCP_OK) rc = scp_native_bytesn(h, kv[0], 32);
    if (rc == SCP_OK) rc = scp_native_bytesn(h, kv[1], 64);
    if (rc == SCP_OK && i) {
      int ord = 0;
      rc = scp_host_compare(h, prev, kv[0], &ord);
      if (rc == SCP_OK && ord >= 0) return auth_error(h, "public keys are not ordered");
    }
    if (rc == SCP_OK) rc = verify_ed25519(h, kv[0], payload, kv[1]);
    if (rc == SCP_OK) rc = scp_native_bytes_to_array(h, kv[0], pk, 32);
    uint32_t w = 0;
    if (rc == SCP_OK) rc = signer_weight(h, &acct, pk, &w);
    if (rc == SCP_OK && !w) return auth_error(h, "signer does not belong to account");
    weight += w;
    prev = kv[0];
  }
  if (rc == SCP_OK && weight < acct.thr[THRESHOLD_MED])
    return auth_error(h, "signature weight is lower than threshold");
  return rc;
}

int scp_auth_emul_inputs(scp_host *h, const scp_auth_emul_in *a, uint64_t *payload, uint64_t *ctx,
                       uint8_t hash[32]) {
  tree tr = { .n = (scp_auth_mgr_tnode *)a->nodes, .len = a->nnodes };
  int rc = signature_payload(h, a, &tr, hash);
  if (rc == SCP_OK) rc = scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, hash, 32, payload);
  if (rc == SCP_OK) rc = auth_context(h, &tr, ctx);
  return rc;
}

/* authenticate for an account address (its result is dropped by the
 * caller, except out-of-memory and not-implemented). */
static int authenticate_account(scp_host *h, const scp_auth_mgr_tinfo *t, const tree *tr,
                                uint64_t sigs) {
  uint8_t self[33], hash[32];
  uint64_t payload, ctx;
  SAC_TRACE(h, "authenticate");
  scp_auth_emul_in a = { .address = t->address, .nonce = t->nonce, .live_until = t->nonce_live_until,
                    .with_address = true, .nodes = tr->n, .nnodes = tr->len };
  int rc = scaddress(h, t->address, self);
  if (rc == SCP_OK) rc = scp_auth_emul_inputs(h, &a, &payload, &ctx, hash);
  /* the zero signature never verifies */
  return rc == SCP_OK ? scp_auth_emul_check_account(h, self + 1, payload, sigs) : rc;
}

/* An account: one dummy signature -- BytesN<32> of the key and BytesN<64>
 * of zeros (bytes_new_from_slice), the AccountEd25519Signature struct
 * (map_new_from_slices {public_key, signature}), host_vec! of it; then
 * authenticate with diagnostics suppressed and its result dropped: the
 * address again, the signature payload (network id clone, the root
 * invocation's XDR, the address, HashIdPreimageSorobanAuthorizationWith-
 * Address written with one ValSer per write and SHA-256'd), its Bytes,
 * the auth context Val, check_account_authentication (which fails on the
 * zero signature); finally the AccountId clone.  A missing account entry
 * makes load_account fail with Error(Storage, MissingValue) inside
 * authenticate, which is dropped: the rest of the checks are not charged,
 * as in the reference.  Checked against test__stellar_asset_contract__
 * test_recording_auth_for_stellar_asset_contract.json (after the mint's
 * pop: 455,270 CPU, 7,580 B), see test_auth.c; accounts with
 * signed-payload signers or sponsoring ids are worked out from the code,
 * not checked against a trace. */
static int emulate_account_tree(scp_host *h, const scp_auth_mgr_tinfo *t, const tree *tr,
                                const uint8_t addr[33]) {
  static const uint8_t zero_sig[64];
  uint64_t pk = 0, sig = 0, map = 0, sigs = 0;
  int rc = scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, addr + 1, 32, &pk);
  if (rc == SCP_OK) rc = scp_host_memobj_new_from_slice(h, SCP_TAG_BYTES_OBJ, zero_sig, 64, &sig);
  static const char *const keys[] = { "public_key", "signature" };
  uint64_t vals[2] = { pk, sig };
  if (rc == SCP_OK) rc = scp_native_map_new(h, keys, vals, 2, &map);
  if (rc == SCP_OK) rc = scp_native_vec(h, &map, 1, &sigs);
  if (rc != SCP_OK) return rc;
  /* with_suppressed_diagnostic_events: the error is dropped */
  char msg[sizeof h->errmsg];
  uint64_t errval = h->errval;
  memcpy(msg, h->errmsg, sizeof msg);
  rc = authenticate_account(h, t, tr, sigs);
  if (rc == SCP_ERR_NOMEM || rc == SCP_ERR_UNSUPPORTED || rc == SCP_ERR_INTERNAL) return rc;
  h->errval = errval;
  memcpy(h->errmsg, msg, sizeof msg);
  /* acc.metered_clone: also returns a budget error suppressed above */
  return scp_host_charge_copy(h, 1, SIZE_ACCOUNT_ID);
}

static int emulate_account(scp_host *h, size_t ti, const scp_auth_mgr_tinfo *t, const uint8_t addr[33]) {
  tree tr;
  int rc = tree_load(h, ti, t, &tr);
  if (rc == SCP_OK) rc = emulate_account_tree(h, t, &tr, addr);
  free(tr.n);
  return rc;
}

/* A contract address: its instance and code entries enter the footprint
 * -- the instance key and try_get (a missing one ends it), the instance
 * clone, and for a Wasm executable the code key and try_get; an external
 * reference reads the reference entry and, when it holds a Wasm hash, the
 * code.  __check_auth is not called in recording mode.  Worked out from
 * the reference's code, not checked against a trace. */
static int emulate_contract(scp_host *h, const uint8_t addr[33]) {
  uint8_t kb[4];
  scp_lkey ik;
  scp_lc_instance_key(addr + 1, &ik, kb);
  const scp_sentry *e = NULL;
  int rc = scp_host_charge_copy(h, 1, SIZE_HASH);   /* contract_instance_ledger_key */
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  if (rc == SCP_OK) rc = scp_storage_try_get(h, &ik, &e);
  if (rc != SCP_OK || !e) return rc;
  scp_executable ex;
  if (!scp_lc_parse_instance(e->val, e->vallen, &ex)) return SCP_OK;   /* not an instance */
  rc = scp_lc_charge_instance_clone(h, &ex);
  if (rc == SCP_OK) rc = scp_storage_instance_substructure(h, e->val, e->vallen);
  if (rc != SCP_OK) return rc;
  if (ex.kind == SCP_EXEC_EXTERNAL_REF) {
    /* executable_ref_ledger_key (the owner's clone, the tag's, the key),
     * try_get; a Bytes value of 32 bytes (fixed_length_bytes_from_slice:
     * MemCpy(32); another size is dropped) is the Wasm hash */
    scp_lkey rk;
    const scp_sentry *re = NULL;
    rc = scp_lc_exec_ref_key(h, &ex, &rk);
    if (rc == SCP_OK) rc = scp_storage_try_get(h, &rk, &re);
    scp_lkey_free(&rk);
    if (rc != SCP_OK || !re) return rc;
    if (re->vallen < 40 || scp_be32(re->val) != 13 || scp_be32(re->val + 4) != 32) return SCP_OK;
    rc = scp_host_charge_copy(h, 1, SIZE_HASH);
    if (rc != SCP_OK) return rc;
    memcpy(ex.hash, re->val + 8, 32);
  } else if (ex.kind != SCP_EXEC_WASM) {
    return SCP_OK;
  }
  scp_lkey ck;
  scp_lc_code_key(ex.hash, &ck);
  rc = scp_host_charge_copy(h, 1, SIZE_HASH);   /* contract_code_ledger_key */
  if (rc == SCP_OK) rc = scp_host_charge_alloc(h, 1, SIZE_LEDGER_KEY);
  return rc == SCP_OK ? scp_storage_try_get(h, &ck, &e) : rc;
}

/* maybe_emulate_authentication (host/frame.rs pop_context, when the
 * context stack is empty, before the rollback): per recording tracker in
 * order, scaddress_from_address (VisitObject, ScAddress clone), then the
 * account or contract case; SourceAccount credentials cost nothing.  The
 * tree (sub-invocations recorded by record_invocation) is walked in
 * pre-order for the XDR and the contexts (test_emulation_subinvocation);
 * a create-contract function in it (a deployer's authorization) is
 * host_auth_create.c's: its args' clone, its XDR, its context. */
int scp_auth_emul_run(scp_host *h) {
  if (h->opts.auth_enforcing) return SCP_OK;
  scp_auth_mgr_tinfo t;
  for (size_t i = 0; scp_auth_mgr_tracker_info(h, i, &t); i++) {
    if (t.source) continue;
    uint8_t addr[33];
    SAC_TRACE(h, "emulate");
    int rc = scaddress(h, t.address, addr);
    if (rc == SCP_OK)
      rc = addr[0] == 0 ? emulate_account(h, i, &t, addr) : emulate_contract(h, addr);
    if (rc != SCP_OK) return rc;
  }
  return SCP_OK;
}
