/*
 * host_auth.h — authorization inside the host (auth/): require_auth in
 * recording and enforcing mode, the authorization manager and its
 * trackers, the emulated authentication of recording mode, delegated
 * signers and create-contract authorization.  One prefix per file:
 * scp_auth_ (host_auth.c), scp_auth_mgr_ (host_auth_mgr.c),
 * scp_auth_enf_ (host_auth_enf.c), scp_auth_emul_ (host_auth_emul.c),
 * scp_auth_deleg_ (host_auth_deleg.c), scp_auth_create_
 * (host_auth_create.c).  Core calls none of this directly: the hooks in
 * scp_host_links (run/host_links.c) do.  Hidden internals.
 */
#ifndef SCP_HOST_AUTH_H
#define SCP_HOST_AUTH_H

#include "soroban/core/host_private.h"
#include "soroban/core/host_lifecycle.h"

/* create_contract's deployer auth (host_auth.c):
 * push_create_contract_host_fn_frame and the deployer's require_auth;
 * scp_auth_pop_create after the constructor (create_contract_internal).
 * *pushed tells whether a frame was pushed (see there). */
struct scp_executable;
SCP_HIDDEN int scp_auth_push_create(scp_host *h, uint64_t deployer, const uint8_t addr[33],
                                     const uint8_t salt[32], const uint64_t *ctor, uint32_t nctor,
                                     const struct scp_executable *ex, bool *pushed);
SCP_HIDDEN void scp_auth_pop_create(scp_host *h);
/* address.require_auth() (args Void: the running frame's args) or
 * address.require_auth_for_args(args), for native callers (the SAC): both
 * modes, the reference's charges, no dispatch-level argument checks.  The
 * frame must have been pushed with scp_host_charge_push_context(h, id) and
 * given its args (scp_host_set_frame_args). */
SCP_HIDDEN int scp_auth_require(scp_host *h, uint64_t address, uint64_t args);

/* The authorization manager (host_auth_mgr.c; auth.rs AuthorizationManager):
 * its call stack of contract / create-contract frames, the account trackers
 * (recording mode) and their per-frame match stacks.
 *  scp_auth_mgr_push_contract: push_frame's call-stack entry for a contract frame
 *    (addr = the ScAddress object made for it) and push_tracker_frame;
 *  scp_auth_mgr_push_create: push_create_contract_host_fn_frame (charges too);
 *    on success the entry owns ctx (malloc'd; freed at its pop);
 *  scp_auth_mgr_pop: pop_frame without a snapshot (free);
 *  scp_auth_mgr_save / scp_auth_mgr_restore: the snapshot a failing frame rolls back to
 *    (recording mode: the trackers and the handle map, uncharged);
 *  scp_auth_mgr_snapshot_charges: snapshot()'s charges;
 *  scp_auth_mgr_require_auth: AuthorizationManager::require_auth after the args
 *    are taken (ctx NULL: the top frame's function; else the create args'
 *    clone, see host_auth.c), both modes. */
typedef struct scp_auth_mgr_snap scp_auth_mgr_snap;
SCP_HIDDEN int scp_auth_mgr_push_contract(scp_host *h, uint64_t addr);
SCP_HIDDEN int scp_auth_mgr_push_create(scp_host *h, int (*clone_args)(scp_host *, const void *),
                                  const void *ctx, const uint64_t *ctor, uint32_t nctor);
SCP_HIDDEN void scp_auth_mgr_pop(scp_host *h);
SCP_HIDDEN void scp_auth_mgr_pop_host_frame(scp_host *h);
SCP_HIDDEN int scp_auth_mgr_snapshot_charges(scp_host *h);
SCP_HIDDEN int scp_auth_mgr_save(scp_host *h, scp_auth_mgr_snap **out);
SCP_HIDDEN void scp_auth_mgr_restore(scp_host *h, scp_auth_mgr_snap *s);
SCP_HIDDEN void scp_auth_mgr_snap_free(scp_auth_mgr_snap *s);
SCP_HIDDEN int scp_auth_mgr_require_auth(scp_host *h, uint64_t address, const uint64_t *args,
                                   uint32_t nargs);
/* The address object of the call-stack entry for host frame depth d
 * (a contract frame pushed with the manager's push), 0 when none. */
SCP_HIDDEN uint64_t scp_auth_mgr_frame_address(const scp_host *h, size_t d);
SCP_HIDDEN size_t scp_auth_mgr_tracker_count(const scp_host *h);
SCP_HIDDEN size_t scp_auth_mgr_depth(const scp_host *h);
SCP_HIDDEN void scp_auth_mgr_free(scp_host *h);
/* A host frame was popped (scp_host_links.frame_popped). */
SCP_HIDDEN void scp_auth_mgr_frame_popped(scp_host *h);
/* A recording tracker as the emulation reads it: the address, its
 * SourceAccount credentials, the nonce and its live-until ledger, the
 * authorized tree's node count; its nodes in pre-order (node 0 the root):
 * the function (a contract function: contract, name, args) and the
 * parent's index.  False past the last. */
typedef struct scp_auth_mgr_tinfo {
  uint64_t address;
  bool source;
  int64_t nonce;
  uint32_t nonce_live_until;
  size_t nnodes;
} scp_auth_mgr_tinfo;
struct scp_create_args;
typedef struct scp_auth_mgr_tnode {
  bool is_contract_fn;
  uint64_t contract;
  const char *fn;
  const uint64_t *args;
  uint32_t nargs, parent;
  const struct scp_create_args *create;   /* !is_contract_fn: the create args */
} scp_auth_mgr_tnode;
SCP_HIDDEN bool scp_auth_mgr_tracker_info(const scp_host *h, size_t i, scp_auth_mgr_tinfo *out);
SCP_HIDDEN bool scp_auth_mgr_tracker_node(const scp_host *h, size_t i, size_t k, scp_auth_mgr_tnode *out);
/* The top call-stack entry's create args when it is a create-contract
 * frame (AuthStackFrame::CreateContractHostFn), else NULL. */
SCP_HIDDEN const struct scp_create_args *scp_auth_mgr_top_create(const scp_host *h);
/* maybe_emulate_authentication (host_auth_emul.c): run when the
 * last context is popped in recording mode. */
SCP_HIDDEN int scp_auth_emul_run(scp_host *h);

/* The pieces of AccountAuthorizationTracker::authenticate both
 * modes share (host_auth_emul.c).  scp_auth_emul_inputs: the signature
 * payload (get_signature_payload; with_address picks the AddressV2
 * preimage), its Bytes object and the auth contexts' Vec
 * (convert_to_auth_context_val) of a tree given in pre-order;
 * scp_auth_emul_check_account: check_account_authentication of the account with
 * ed25519 key `key` (the recoverable failures are Error(Contract, 5)). */
typedef struct scp_auth_emul_in {
  uint64_t address;
  int64_t nonce;
  uint32_t live_until;
  bool with_address;
  const scp_auth_mgr_tnode *nodes;
  size_t nnodes;
} scp_auth_emul_in;
SCP_HIDDEN int scp_auth_emul_inputs(scp_host *h, const scp_auth_emul_in *a, uint64_t *payload,
                                  uint64_t *ctx, uint8_t hash[32]);
SCP_HIDDEN int scp_auth_emul_check_account(scp_host *h, const uint8_t key[32], uint64_t payload,
                                    uint64_t sigs);

/* Enforcing mode with authorization entries (host_auth_enf.c;
 * auth.rs AuthorizationManager::new_enforcing, require_auth_enforcing,
 * AccountAuthorizationTracker, InvocationTracker).  The manager's hooks:
 *  scp_auth_enf_count: the account trackers made from entries;
 *  scp_auth_enf_push_frame / scp_auth_enf_pop_frame: push_tracker_frame / pop_frame
 *    of every tracker not borrowed (being authenticated);
 *  scp_auth_enf_snapshot_charges: each such tracker's snapshot();
 *  scp_auth_enf_save / scp_auth_enf_restore / scp_auth_enf_snap_free: the rollback state
 *    (exhausted flags, verified);
 *  scp_auth_enf_require: require_auth_enforcing for the function (contract
 *    address object, name, args) the top frame runs; SCP_OK authorized. */
SCP_HIDDEN size_t scp_auth_enf_count(const scp_host *h);
/* An authentication is under way (the reference's authentication stack is
 * not empty): what __check_auth runs inside. */
SCP_HIDDEN bool scp_auth_enf_authenticating(const scp_host *h);
SCP_HIDDEN int scp_auth_enf_push_frame(scp_host *h);
SCP_HIDDEN void scp_auth_enf_pop_frame(scp_host *h);
SCP_HIDDEN int scp_auth_enf_snapshot_charges(scp_host *h);
SCP_HIDDEN int scp_auth_enf_snapshot_invokers(scp_host *h);
typedef struct scp_auth_enf_snap scp_auth_enf_snap;
SCP_HIDDEN int scp_auth_enf_save(const scp_host *h, scp_auth_enf_snap **out);
SCP_HIDDEN void scp_auth_enf_restore(scp_host *h, scp_auth_enf_snap *s);
SCP_HIDDEN void scp_auth_enf_snap_free(scp_auth_enf_snap *s);
SCP_HIDDEN int scp_auth_enf_require(scp_host *h, uint64_t address, uint64_t contract, const char *fn,
                              const uint64_t *args, uint32_t nargs);
SCP_HIDDEN void scp_auth_enf_free(scp_host *h);
/* Invoker-contract trackers (authorize_as_curr_contract, both modes):
 * scp_auth_enf_add_invokers: one tracker per InvokerContractAuthEntry Val (the
 *   current contract as invoker);
 * scp_auth_enf_check_invokers: maybe_check_invoker_contract_auth past the
 *   direct invoker (curr: the current contract's address object, 0 for a
 *   create-contract frame); *ok when one authorizes the call. */
SCP_HIDDEN size_t scp_auth_enf_invoker_count(const scp_host *h);
SCP_HIDDEN int scp_auth_enf_add_invokers(scp_host *h, const uint64_t *entries, uint32_t n);
SCP_HIDDEN int scp_auth_enf_check_invokers(scp_host *h, uint64_t address, uint64_t curr, const char *fn,
                                     const uint64_t *args, uint32_t nargs, bool *ok);
/* AddressWithDelegates credentials' delegated signers (host_auth_deleg.c;
 * auth.rs DelegatedAccountAuthTracker):
 *  scp_auth_deleg_from_xdr: the tree from the VecM<SorobanDelegateSignature> at p
 *    (n bytes left; *used read), charged as from_xdr; the Error(Auth,
 *    InvalidInput) of duplicate or unsorted addresses, SCP_ERR_MALFORMED;
 *  scp_auth_deleg_snapshot_charges: its snapshot()'s charges;
 *  scp_auth_deleg_save / scp_auth_deleg_restore / scp_auth_deleg_state_free: the rollback state
 *    (restore charges the match stack's clone);
 *  scp_auth_deleg_push: try_push_delegated_auth_frame (*signature the delegate's);
 *  scp_auth_deleg_pop: pop_delegated_auth_frame;
 *  scp_auth_deleg_signers: get_current_delegated_signer_addresses (a Vec object).
 * scp_auth_enf_current_auth: the authentication stack's top frame
 *  (with_current_authentication_frame): its delegates (NULL without), the
 *  signature payload and the context; Error(Auth, InternalError) when no
 *  authentication is under way. */
typedef struct scp_auth_deleg scp_auth_deleg;
typedef struct scp_auth_deleg_state scp_auth_deleg_state;
SCP_HIDDEN int scp_auth_deleg_from_xdr(scp_host *h, const uint8_t *p, size_t n, size_t *used,
                               scp_auth_deleg **out);
SCP_HIDDEN void scp_auth_deleg_free(scp_auth_deleg *d);
SCP_HIDDEN int scp_auth_deleg_snapshot_charges(scp_host *h, const scp_auth_deleg *d);
SCP_HIDDEN scp_auth_deleg_state *scp_auth_deleg_save(const scp_auth_deleg *d);
SCP_HIDDEN void scp_auth_deleg_restore(scp_host *h, scp_auth_deleg *d, const scp_auth_deleg_state *s);
SCP_HIDDEN void scp_auth_deleg_state_free(scp_auth_deleg_state *s);
SCP_HIDDEN int scp_auth_deleg_push(scp_host *h, scp_auth_deleg *d, uint64_t address, uint64_t *signature);
SCP_HIDDEN void scp_auth_deleg_pop(scp_auth_deleg *d);
SCP_HIDDEN int scp_auth_deleg_signers(scp_host *h, const scp_auth_deleg *d, uint64_t *out);
SCP_HIDDEN int scp_auth_enf_current_auth(scp_host *h, scp_auth_deleg **deleg, uint64_t *payload, uint64_t *ctx);
/* Tests: called just before a custom account's __check_auth is called. */
SCP_HIDDEN extern void (*scp_auth_enf_probe)(scp_host *h);
/* Host::consume_nonce (host_auth_mgr.c). */
SCP_HIDDEN int scp_auth_mgr_consume_nonce(scp_host *h, uint64_t address, int64_t nonce,
                                    uint32_t live_until);

/* (host_auth_create.c) CreateContractArgsV2's parts of the authorization
 * code, each charged as the reference charges it:
 *  scp_auth_create_clone_charges: CreateContractArgsV2::metered_clone;
 *  scp_auth_create_compare: Compare<CreateContractArgsV2> (*ord 0: equal);
 *  scp_auth_create_xdr: SorobanAuthorizedFunction::CreateContractV2HostFn's XDR,
 *    with one ValSer per write when charge (metered_hash_xdr's writer),
 *    uncharged otherwise (*out malloc'd);
 *  scp_auth_create_context: AuthorizationContext::from_authorized_fn's Val
 *    (CreateContractHostFn, or CreateContractWithCtorHostFn with
 *    constructor args); a StellarAsset executable is Error(Auth,
 *    InvalidInput);
 *  scp_auth_create_dup / scp_auth_create_free: an owned copy (ctor copied).
 * Errors: the budget's, SCP_ERR_NOMEM, host errors as said. */
SCP_HIDDEN int scp_auth_create_clone_charges(scp_host *h, const scp_create_args *c);
SCP_HIDDEN int scp_auth_create_compare(scp_host *h, const scp_create_args *a, const scp_create_args *b,
                               int *ord);
SCP_HIDDEN int scp_auth_create_xdr(scp_host *h, const scp_create_args *c, bool charge, uint8_t **out,
                           size_t *len);
SCP_HIDDEN int scp_auth_create_context(scp_host *h, const scp_create_args *c, uint64_t *out);
SCP_HIDDEN scp_create_args *scp_auth_create_dup(const scp_create_args *c);
SCP_HIDDEN void scp_auth_create_free(scp_create_args *c);

#endif
