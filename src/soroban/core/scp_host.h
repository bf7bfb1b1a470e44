/*
 * scp_host.h — the Soroban host: Val objects, host functions and their
 * Budget charges, as rs-soroban-env v28 performs them.
 *
 * The host owns an object table (absolute handles) and a stack of VM
 * frames, each with its relative-handle table (what the guest sees).  The
 * VM glue (sor_vm.c) flushes guest fuel into the budget *before* calling
 * scp_host_dispatch, which then performs, in the reference order:
 * DispatchHostFunction charge -> relative->absolute argument conversion ->
 * the function's own checks and charges -> absolute->relative result.
 */
#ifndef SCP_HOST_H
#define SCP_HOST_H

#include "soroban/core/scp_budget.h"

typedef struct scp_host scp_host;

/* Host function table: one entry per function of env.json, generated into
 * host_fns.def.  Ids are dense, in env.json order. */
typedef struct scp_hostfn {
  const char *module;    /* WASM import module ("v", "x", ...) */
  const char *field;     /* WASM import field ("_", "0", ...) */
  const char *name;      /* "vec_push_back" */
  uint8_t argc;
  uint8_t min_proto, max_proto;   /* 0 = unbounded */
} scp_hostfn;

unsigned scp_hostfn_count(void);
const scp_hostfn *scp_hostfn_get(unsigned id);      /* NULL if out of range */
/* Id of the import (module, field), or -1 when the host has no such function. */
int scp_hostfn_find(const char *module, const char *field);

typedef struct scp_host_opts {
  uint32_t protocol;          /* 0 = latest in env.json */
  uint32_t ledger_sequence;   /* default 0 */
  uint64_t ledger_timestamp;
  /* */
  uint8_t network_id[32];     /* get_ledger_network_id; default all zero */
  uint32_t max_entry_ttl;     /* get_max_live_until_ledger; 0 = 3110400 */
  /* new entries live until sequence + ttl - 1 (0 = 16 / 4096, the
   * reference's test ledger) */
  uint32_t min_temp_entry_ttl, min_persistent_entry_ttl;
  /* LedgerInfo base_reserve in stroops, for the Stellar Asset
   * Contract's native balances (minimum balances, new accounts);
   * 0 = 5_000_000, the network's and the reference's test ledger's. */
  uint32_t base_reserve;
  /* Authorization mode: false (default) = recording ("mock all
   * auths", simulation); true = enforcing with no entries, the reference
   * test host's default (its traces); see host_auth.c. */
  bool auth_enforcing;
  /* The transaction's source account (Host::set_source_account;
   * simulation always has one): its ed25519 key.  A recording tracker for
   * it writes no nonce; every new tracker compares with it. */
  bool has_source_account;
  uint8_t source_account[32];
  /* Recording mode's disable_non_root_auth (simulation's default
   * "record" mode sets it): a require_auth needing a new authorization
   * tree outside the root frame fails with Error(Auth, InvalidAction).
   * false (default): allowed, as mock_all_auths_allowing_non_root_auth. */
  bool auth_disable_non_root;
  /* A module cache holding the code of the snapshot (a soroban-sdk test's
   * Env after e.register): instantiate_vm's cache branch, charged -- the
   * code key built, Storage::has on it -- with no parse and no code read.
   * false (default): no cache, the code read and parsed uncharged, as
   * the network's recording-mode invocation does. */
  bool module_cache;
  /* Recording mode stores an entry it reads through from the snapshot
   * source encoded and its first get decodes it, charged, as rs-soroban-env
   * v28 does (host_lazy.c); every profile's context sets it.  false
   * (default): stored decoded, never charged, as in a host whose entries
   * were put (the reference's test hosts). */
  bool lazy_read_through;
} scp_host_opts;

/* Enforcing-mode authorization from signed entries:
 * Host::set_authorization_entries (AuthorizationManager::new_enforcing,
 * charged).  entries[i] is a SorobanAuthorizationEntry's XDR (lens[i]
 * bytes; SourceAccount, Address or AddressV2 credentials, contract-function
 * trees); the host switches to enforcing mode.  Call after the ledger and
 * the source account are set, before the invocation.  Returns SCP_OK,
 * SCP_ERR_MALFORMED (bad XDR), SCP_ERR_UNSUPPORTED (create-contract
 * functions, delegated credentials), SCP_ERR_HOST (e.g. SourceAccount
 * credentials with no source account), SCP_ERR_BUDGET, SCP_ERR_NOMEM; err
 * says why.  On failure no entry is kept (charges made stay charged). */
struct scp_error;
int scp_host_set_auth_entries(scp_host *h, const uint8_t *const *entries, const size_t *lens,
                              size_t n, struct scp_error *err);

/* Create a host charging into budget b (borrowed).  opts may be NULL.
 * Returns SCP_OK or SCP_ERR_NOMEM. */
int scp_host_create(scp_budget *b, const scp_host_opts *opts, scp_host **out);
void scp_host_destroy(scp_host *h);

/* The calling VM's linear memory, valid for one dispatch. */
typedef struct scp_hostmem {
  uint8_t *base;
  uint64_t len;
} scp_hostmem;

/* Push/pop the relative-handle frame of a contract VM.  scp_host_push_frame
 * uses an all-zero contract id. */
int scp_host_push_frame(scp_host *h);
/* Same, naming the running contract (get_current_contract_address,
 * contract events).  Returns SCP_OK or SCP_ERR_NOMEM. */
int scp_host_push_contract_frame(scp_host *h, const uint8_t contract_id[32]);
void scp_host_pop_frame(scp_host *h);
/* The result of recording mode's emulated authentication, which
 * popping the last frame runs (SCP_OK when it did not run; else err gets
 * the message), then reset. */
int scp_host_take_auth_emulation_rc(scp_host *h, scp_error *err);

/* Run host function fn with raw Val args (relative handles).  On SCP_OK
 * *ret is the result Val (relative).  On failure: SCP_ERR_BUDGET (limit
 * crossed; *ret = Error(Budget, ExceededLimit)), SCP_ERR_HOST (*ret holds
 * the Error Val the reference raises, err the message), SCP_ERR_NOMEM,
 * SCP_ERR_UNSUPPORTED (a function, or a case of one -- temporary or
 * persistent storage -- not implemented yet; no Error Val), and
 * SCP_ERR_INTERNAL for fn out of range.  Charges made before a failure
 * stay charged, as in the reference. */
int scp_host_dispatch(scp_host *h, unsigned fn, const uint64_t *args,
                      scp_hostmem *mem, uint64_t *ret, scp_error *err);

/* Run host function fn the way the reference's own tests call the
 * host directly as an Env (vmcaller_env.rs): no DispatchHostFunction charge
 * and no relative/absolute conversion -- args and *ret are absolute -- but
 * the same argument/result checks (CheckedEnvArg) and function charges.
 * mem may be NULL (no VM frame: linear-memory functions then fail as in the
 * reference).  Returns as scp_host_dispatch, plus SCP_ERR_UNSUPPORTED for a
 * function not implemented yet. */
int scp_host_call(scp_host *h, unsigned fn, const uint64_t *args,
                  scp_hostmem *mem, uint64_t *ret, scp_error *err);

/* Id of the host function called name ("vec_push_back"), or -1. */
int scp_hostfn_find_name(const char *name);
/* Whether the host implements function id (else dispatch returns
 * SCP_ERR_UNSUPPORTED). */
bool scp_hostfn_implemented(unsigned id);

/* Host::absolute_to_relative (host_object.rs): for an object Val,
 * charge MemAlloc(8) and append it to the current frame's relative table;
 * *out is the relative Val.  Non-objects pass unchanged, free.  The VM glue
 * uses it for a contract function's arguments (vm.rs invoke_function_raw:
 * charge_bulk_init_cpy of the wasmi::Value args first -- MemCpy(24),
 * MemAlloc(16*n), MemCpy(16*n) -- then this per argument, then
 * InvokeVmFunction).  Returns SCP_OK, SCP_ERR_BUDGET, SCP_ERR_HOST. */
int scp_host_to_relative(scp_host *h, uint64_t val, uint64_t *out);
/* Host::relative_to_absolute for the current frame (no charge),
 * e.g. for a contract function's result.  SCP_OK or SCP_ERR_HOST. */
int scp_host_to_absolute(scp_host *h, uint64_t val, uint64_t *out);

/* Host::set_base_prng_seed (host.rs): seeds the base PRNG from
 * which every contract frame's PRNG is drawn.  Charges what the reference
 * does -- 2 x ComputeSha256Hash(64) for the seed's HMAC, cpu 14,285 --
 * which e2e invocation pays before the contract call.  Returns SCP_OK or
 * SCP_ERR_BUDGET.  Without it the prng_* functions fail with
 * Error(Context, InternalError) ("host base PRNG was not seeded"). */
int scp_host_set_base_prng_seed(scp_host *h, const uint8_t seed[32]);
/* The recording-auth nonces drawn so far (one per new tracker of an
 * address that is not the source account), and n draws skipped (after
 * the seed): one Env's stream across several runs, each re-seeded. */
uint64_t scp_host_recording_nonces(const scp_host *h);
void scp_host_skip_recording_nonces(scp_host *h, uint64_t n);

/* Number of host objects (absolute table). */
size_t scp_host_object_count(const scp_host *h);

/* Turn a CLI argument into a Val for a contract call in the current frame,
 * creating and charging host objects the way the reference host converts
 * ScVal arguments.  Returns SCP_OK, SCP_ERR_BUDGET, SCP_ERR_ARG.
 * The Val is ABSOLUTE (host side); the VM glue makes it relative with
 * scp_host_to_relative when it invokes the function (vm.rs).
 * Charges (conversion.rs to_host_obj): small values none; u64/i64 objects
 * MemCpy(8) + MemAlloc(64); u128/i128 objects MemCpy(16) + MemAlloc(64);
 * bytes/string/long symbols MemCpy(24) + MemAlloc(n) + MemCpy(n) +
 * MemAlloc(64).  SCP_ARG_BYTES: hi == 1 means data is hex text of len
 * digits (what scp_arg_parse produces), hi == 0 raw bytes. */
int scp_host_arg_to_val(scp_host *h, const scp_arg *a, uint64_t *val,
                        scp_error *err);
/* All n arguments of a call (conversion.rs scvals_to_val_vec): the
 * Vec<Val> collect charges MemCpy(24) + MemAlloc(8n) + MemCpy(8n) first,
 * then each argument as scp_host_arg_to_val.  vals has room for n. */
int scp_host_args_to_vals(scp_host *h, const scp_arg *args, size_t n,
                          uint64_t *vals, scp_error *err);

/* Contract-data storage traffic so far, counted per host function
 * on temporary and persistent entries (instance storage accesses and the
 * host's own reads of contract instances and code are not counted): reads
 * are has / get / extend_*_ttl calls, writes put / del, and the instance
 * entry a frame writes back at its end (its instance storage changed);
 * bytes are the ScVal XDR sizes of the key plus the value read or
 * written. */
typedef struct scp_storage_stats {
  uint64_t reads, writes, bytes_read, bytes_written;
} scp_storage_stats;
void scp_host_storage_stats(const scp_host *h, scp_storage_stats *out);

/* Contracts (host_contract.c).
 *
 * The invoker runs one contract function in a nested VM, as
 * Host::call_contract_fn does from the VM creation on: it charges the VM's
 * creation (parsing too when inv->parse: code written during this run; code
 * from the ledger snapshot is parsed uncharged), pushes the frame
 * (scp_host_charge_push_context, scp_host_push_contract_frame), converts
 * the args, runs, and pops.  *ret is the absolute result.  Returns as
 * scp_host_dispatch; host errors leave the Error in the host (try_call
 * reads it). */
typedef struct scp_invocation {
  const uint8_t *id;           /* contract id, 32 bytes */
  const uint8_t *wasm;         /* its code, borrowed for the call */
  size_t len;
  const char *fn;
  bool constructor;            /* __constructor: a missing export is no error without args */
  bool parse;                  /* charge parsing (code not from the snapshot) */
  const uint64_t *args;        /* absolute */
  uint32_t nargs;
  /* get_contract_protocol_version: create the VM only (no frame, no
   * call); *ret = U32Val of the module's protocol (contractenvmetav0). */
  bool probe;
} scp_invocation;
typedef int (*scp_host_invoker)(void *ctx, scp_host *h, const scp_invocation *inv,
                                uint64_t *ret, scp_error *err);
void scp_host_set_invoker(scp_host *h, scp_host_invoker fn, void *ctx);

/* soroban-sdk's test Env: e.register(WASM, ()) as the storage map and
 * module cache it leaves (the contract id from the test generator's
 * address number gen, contract 00..0gen, salt zero: the Env's first
 * register is 1), uncharged; then one client call measured as
 * cost_estimate() measures it (Host::call at depth 0, the arguments and
 * the function's Symbol built outside).  Codes as scp_host_invoke_contract. */
int scp_host_deploy_test_env(scp_host *h, const uint8_t *wasm, size_t len, uint32_t gen, uint8_t id[32]);
int scp_host_test_call(scp_host *h, const uint8_t id[32], const char *fn, const uint64_t *args,
                       uint32_t nargs, uint64_t *ret, scp_error *err);
/* e.register(WASM, args)'s constructor: __constructor(args) on contract
 * id (deployed by scp_host_deploy_test_env) at depth 0, on h's budget;
 * a contract built before protocol 22, or exporting no __constructor,
 * runs none (an error with args).  Codes as scp_host_invoke_contract. */
int scp_host_test_construct(scp_host *h, const uint8_t id[32], const uint64_t *args, uint32_t nargs,
                            scp_error *err);

/* Contract id of a contract deployed by `deployer` (an account's ed25519
 * key, or a contract id when deployer_is_contract) with `salt`: SHA-256 of
 * the HashIdPreimage::ContractId XDR with the ledger's network id. */
void scp_host_contract_id(const scp_host *h, bool deployer_is_contract,
                          const uint8_t deployer[32], const uint8_t salt[32], uint8_t id[32]);

/* Deploy wasm as ledger state set up before the profiled work (no
 * charges, as the reference's snapshot source): the code entry keyed by
 * the Wasm's SHA-256 and an instance entry for the contract id derived from
 * (deployer account, salt), both in the footprint.  *id receives it.
 * Returns SCP_OK or SCP_ERR_NOMEM. */
int scp_host_deploy(scp_host *h, const uint8_t *wasm, size_t len, const uint8_t deployer[32],
                    const uint8_t salt[32], uint8_t id[32]);

/* The function name of an InvokeContract host function as a Symbol
 * (ScSymbol::try_into_val): small when it fits, else a Symbol object,
 * charged as symbol_new_from_slice.  SCP_OK, SCP_ERR_BUDGET, SCP_ERR_HOST. */
int scp_host_symbol_val(scp_host *h, const char *name, uint64_t *out);

/* Call contract id's function fn with absolute args the way
 * Host::call_n_internal does (reserved-name and re-entry checks, the
 * instance and code reads from storage, then the invoker).  The top-level
 * invocation of a profile runs through here.  *ret absolute; on failure
 * err says why and *ret holds the Error Val when there is one. */
int scp_host_invoke_contract(scp_host *h, const uint8_t id[32], const char *fn,
                             const uint64_t *args, uint32_t nargs, uint64_t *ret, scp_error *err);

/* The strkey ("C...", 56 characters + NUL) of contract id. */
void scp_host_contract_strkey(const uint8_t id[32], char out[57]);

/* Number of import symbols ParsedModule::with_import_symbols charges for
 * (distinct function imports, names under 32 bytes): every VM creation
 * charges a Vec<(&str, &str)> bulk init of that many 40-byte entries once
 * for the linker (when the module is parsed) and once for the import
 * protocol check (every instantiation). */
struct scp_wasm_module;
uint64_t scp_host_import_symbols(const struct scp_wasm_module *m);

/* push_context's charges (frame.rs), for a contract frame (contract_id)
 * or a host-function frame (NULL): the auth manager's frame push (contract
 * frames: the id clone, an ScAddress object, the call-stack entry and one
 * match-stack entry per recording tracker; both: its snapshot -- the
 * invoker trackers' metered_collect, and in enforcing mode the account
 * trackers' Vec), the rollback point's storage-map clone (MemCpy(24) +
 * MemAlloc/MemCpy(68 n)) and the Context push (Vec<Context> bulk init of
 * one 552-byte Context).  A contract frame also enters the auth manager's
 * call stack (left by scp_host_pop_frame).  SCP_OK, SCP_ERR_BUDGET or
 * SCP_ERR_NOMEM. */
int scp_host_charge_push_context(scp_host *h, const uint8_t *contract_id);

/* Name the function the top frame runs (for auth records). */
int scp_host_set_frame_fn(scp_host *h, const char *name);
/* The top frame's call arguments (absolute Vals, copied): what
 * require_auth authorizes. */
int scp_host_set_frame_args(scp_host *h, const uint64_t *args, uint32_t n);

/* require_auth / require_auth_for_args seen so far (mock all auths), and
 * one rendered: "Address(C...) authorized 1a2b3c4d..:fn(args)". */
size_t scp_host_auth_count(const scp_host *h);
void scp_host_auth_format(scp_host *h, size_t i, scp_buf *b);

/* Human-readable rendering of a Val ("u32:7", "Vec[u32:1, u32:2]"). */
void scp_host_val_format(scp_host *h, uint64_t val, scp_buf *b);

/* Events emitted so far (contract + diagnostic), for the report. */
size_t scp_host_event_count(const scp_host *h);

#endif
