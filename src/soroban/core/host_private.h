/*
 * host_private.h — the Soroban host's internals, shared by host.c (objects,
 * frames, dispatch), host_fns*.c (the host functions) and args.c.  Not part
 * of any public interface; every function here has hidden visibility.
 */
#ifndef SCP_HOST_PRIVATE_H
#define SCP_HOST_PRIVATE_H

#include "soroban/core/scp_host.h"
#include "soroban/core/scp_val.h"
#include "crypto/crypto_fr.h"
#include "xdr/scp_xdr.h"
#include <string.h>

/* Argument / result types of env.json. */
typedef enum scp_vtype {
#define T(name) SCP_VT_##name,
#include "soroban/core/host_vtypes.def"
#undef T
  SCP_VT_COUNT
} scp_vtype;

enum {
#define A(t)
#define X(id, mod, field, name, argc, lo, hi, ret, args) SCP_HF_##name = id,
#include "soroban/core/host_fns.def"
#undef X
#undef A
  SCP_HF_COUNT
};

#define SCP_HOST_MAX_ARGS 8

/* A host object (HostObject, host_object.rs).  Objects are immutable once
 * added, as in the reference: every "mutating" host function makes a new
 * object. */
typedef struct scp_hobj {
  uint8_t tag;      /* the object's Val tag (SCP_TAG_*_OBJ) */
  uint32_t len;     /* bytes/string/symbol: byte count; vec: elements;
                       map: entries */
  union {
    uint64_t u64;
    int64_t i64;
    struct { uint64_t hi, lo; } i128;       /* u128 / i128 (hi signed for i128) */
    uint64_t w[4];                          /* u256 / i256: hi_hi, hi_lo, lo_hi, lo_lo */
    uint8_t *bytes;                         /* bytes, string, symbol, address */
    uint64_t *vals;                         /* vec: len Vals; map: 2*len (k, v) */
  } u;
} scp_hobj;

/* rand_chacha ChaCha20Rng state (host_prng.c). */
typedef struct scp_prng {
  uint32_t key[8];
  uint64_t counter;
  uint32_t buf[64];
  unsigned index;
} scp_prng;

/* A frame's instance storage (storage.rs InstanceStorageMap): a sorted
 * (key, value) array kept outside the object table, as the reference keeps
 * its HostMap in the frame's Context (host_instance.c). */
typedef struct scp_instance {
  uint64_t *kv;
  uint32_t n;
} scp_instance;

typedef struct scp_frame {
  uint64_t *rel;    /* relative index -> absolute object Val */
  size_t n, cap;
  uint8_t contract_id[32];
  uint8_t *instance;      /* Frame's ScContractInstance: the instance entry's
                             value image as read at call time (NULL: none) */
  uint32_t instance_len;
  scp_instance storage;   /* Context.storage, once instance_loaded */
  bool instance_loaded;   /* maybe_init_instance_storage ran in this frame */
  bool instance_modified; /* InstanceStorageMap.is_modified */
  bool sac;               /* a Stellar Asset Contract frame (sac_contract.c) */
  bool has_prng;          /* the frame's PRNG was derived from the base */
  char fn[32];            /* the function running (auth records) */
  uint64_t *args;         /* the call's arguments (absolute Vals; require_auth) */
  uint32_t nargs;
  scp_prng prng;
} scp_frame;

/* A ledger key of the storage (LedgerKey, Stellar-ledger-entries.x): only
 * the two kinds contracts reach.  CONTRACT_DATA: id = contract id, key =
 * the ScVal XDR image of the key, dur = ContractDataDurability;
 * CONTRACT_CODE: id = the Wasm hash. */
enum { SCP_LK_CONTRACT_DATA = 6, SCP_LK_CONTRACT_CODE = 7 };
enum { SCP_DUR_TEMPORARY = 0, SCP_DUR_PERSISTENT = 1 };
typedef struct scp_lkey {
  uint8_t type, dur;
  bool account;     /* CONTRACT_DATA whose ScAddress is an account: id is
                       its ed25519 key (the auth manager's nonce keys) */
  uint8_t id[32];
  uint8_t *key;
  uint32_t keylen;
} scp_lkey;

/* One StorageMap entry (storage.rs): the key, then Option<(entry,
 * live_until)> -- present false is None (deleted / missing). */
typedef struct scp_sentry {
  scp_lkey k;
  bool present;
  uint8_t *val;        /* CONTRACT_DATA: ScVal XDR of the value; CODE: the Wasm */
  uint32_t vallen;
  uint32_t live_until;
  /* The length of the encoded LedgerEntry behind a lazy entry (one the
   * embedder passed in enforcing mode, host_enforce.c; one read through
   * from the snapshot source in recording mode, host_lazy.c); 0 for an
   * entry put in-host (LazyLedgerEntry::from_decoded).  In the snapshot
   * source: the entry's length as the ledger file held it, 0 unknown. */
  uint32_t enc_len;
  /* Recording mode: 1 + the index of the read-through's decoded memo in
   * h->lazy_decoded (the Rc<LazyLedgerEntry> the map's rollback copies
   * share); 0 none. */
  uint32_t lazy;
} scp_sentry;

enum { SCP_FEE_HOOK_FOOTPRINT, SCP_FEE_HOOK_WRITE, SCP_FEE_HOOK_EXTEND, SCP_FEE_HOOK_EVENT };
/* What an authentication checks (scp_host.auth_hook): an account's ed25519
 * signature, or a custom account's __check_auth. */
enum { SCP_AUTH_VERIFY_ED25519, SCP_AUTH_VERIFY_CONTRACT };

/* One Footprint entry: AccessType 0 read-only, 1 read-write. */
typedef struct scp_fentry {
  scp_lkey k;
  uint8_t rw;
  uint8_t decoded;   /* enforcing mode, declared footprint: its lazy entry was decoded */
} scp_fentry;

/* One require_auth(_for_args) seen in mock-all-auths mode. */
typedef struct scp_auth_rec {
  uint64_t address;       /* absolute AddressObject */
  uint64_t args;          /* absolute VecObject, or Void for require_auth */
  uint8_t contract_id[32];
  char fn[32];
} scp_auth_rec;

typedef struct scp_event {
  uint64_t topics;  /* absolute VecObject */
  uint64_t data;    /* absolute Val */
  uint64_t id;      /* the contract id's BytesObject, 0: none (outside a contract) */
} scp_event;

struct scp_host {
  scp_budget *budget;
  scp_host_opts opts;
  const struct scp_host_links *links;   /* the layers above (scp_host_links) */
  scp_hobj *objs;
  size_t nobjs, capobjs;
  scp_frame *frames;
  size_t nframes, capframes;
  scp_event *events;
  size_t nevents, capevents;
  /* The events of the frames that failed (the reference keeps them,
   * marked FromFailedCall: Events::externalize converts them too,
   * host_teardown.c), in the order they were rolled back. */
  scp_event *failed_events;
  size_t nfailed_events, capfailed_events;
  bool failed_events_lost;    /* out of memory keeping them */
  scp_sentry *store;          /* StorageMap, sorted by the LedgerKey order */
  size_t nstore, capstore;
  scp_sentry *snap;           /* the snapshot source: ledger state before the run */
  size_t nsnap, capsnap;
  scp_fentry *foot;           /* Footprint (recording mode), sorted */
  size_t nfoot, capfoot;
  /* Enforcing mode (host_enforce.c, a transaction as the network runs
   * it): declared is its footprint, the Footprint map (sorted, built
   * with charges: every access must be in it, a write in its read-write
   * part); store holds every footprint entry from the start; an access is
   * Footprint::enforce_access, nothing is read through.  foot still
   * records the accesses, uncharged, for the fee and the reports.
   * restored: the RestoredKeySet's keys. */
  bool enforcing;
  scp_fentry *declared;
  size_t ndeclared, capdeclared;
  scp_fentry *restored;
  size_t nrestored, caprestored;
  /* Recording mode: per read-through (scp_sentry.lazy), whether its
   * LazyLedgerEntry was decoded; it outlives the frames' rollbacks. */
  uint8_t *lazy_decoded;
  size_t nlazy, caplazy;
  /* Code entries stored without cost inputs (ContractCodeEntry ext v0),
   * by Wasm hash (borrowed from the ledger): the VM charges them by their
   * byte length, and their entries are that much smaller. */
  const uint8_t (*v0_code)[32];
  size_t nv0_code;
  scp_storage_stats stats;    /* contract-data reads / writes so far */
  bool io;                    /* the next storage access counts in stats */
  scp_host_invoker invoker;   /* runs a contract in a nested VM (sor_vm.c) */
  void *invoker_ctx;
  /* the profiler's node for a native contract frame: enter true at
   * the Stellar Asset Contract's frame push, false after its pop (sor_vm.c;
   * NULL: no profile) */
  void (*native_hook)(void *ctx, const uint8_t id[32], bool enter);
  /* the profiler's auth:verify node: enter true before an authentication's
   * signature check (what: SCP_AUTH_VERIFY_*), false after it, whatever it
   * returned (sor_vm.c; NULL: no profile) */
  void (*auth_hook)(void *ctx, int what, bool enter);
  /* the fee tracker's notes (sor_vm.c; NULL: none): a key entering the
   * footprint or turning read-write, a write, a TTL extension (k), an
   * event (its slot in events) */
  void (*fee_hook)(void *ctx, int what, const struct scp_lkey *k, size_t index);
  /* (tests) A native test contract, as the reference's TestContractRegistry
   * (host/frame.rs call_contract_fn, testutils): when set, a call whose
   * executable resolves to Wasm runs this instead of a VM, after the
   * instance read and the Frame's contract-id clone.  The function pushes
   * and pops its frame itself (call_test_contract_fn's with_frame:
   * scp_host_charge_push_context, scp_host_push_contract_frame); the
   * caller rolls the storage and events back when it fails.  Returns as
   * a host function (SCP_ERR_HOST with h->errval set for a contract
   * error).  Only test_replay.c sets it. */
  int (*test_contract)(void *ctx, scp_host *h, const uint8_t id[32], const char *fn,
                       const uint64_t *args, uint32_t n, uint64_t *ret);
  void *test_contract_ctx;
  scp_auth_rec *auths;
  size_t nauths, capauths;
  struct scp_auth_mgr *am;    /* the authorization manager (host_auth_mgr.c) */
  struct scp_auth_enf *ae;    /* its enforcing trackers (host_auth_enf.c) */
  int auth_emul_rc;           /* the emulation's result at the last pop */
  bool has_nonce_prng;        /* the recording-auth nonce PRNG (set_base_prng_seed) */
  scp_prng nonce_prng;
  uint64_t nonces_drawn;      /* recording-auth nonces drawn from it by trackers */
  scp_hostmem *mem;           /* the calling VM's memory during a dispatch */
  unsigned depth;             /* Budget depth limiter (with_limited_depth) */
  bool has_base_prng;
  scp_prng base_prng;
  uint64_t errval;            /* Error Val of the last failure */
  char errmsg[256];
};

typedef int (*scp_hostfn_impl)(scp_host *h, const uint64_t *args, uint64_t *ret);

/* What the layers above core plug into a host.  Core calls these at run
 * time (a frame popped, a contract called, a host function dispatched)
 * and knows nothing else of auth, the asset contract or the function
 * bodies; run/host_links.c fills the one table scp_host_create gives
 * every host. */
struct scp_auth_mgr_snap;
struct scp_executable;
typedef struct scp_host_links {
  /* the host-function bodies by SCP_HF_* id; NULL where not implemented */
  const scp_hostfn_impl *impls;
  /* auth: a frame was popped (the last one runs recording mode's
   * emulation first); the host is being destroyed */
  void (*frame_popped)(scp_host *h);
  void (*destroying)(scp_host *h);
  /* auth, around a contract call: the manager's frame and its snapshot */
  int (*auth_push_contract)(scp_host *h, uint64_t addr);
  int (*auth_snapshot_charges)(scp_host *h);
  int (*auth_save)(scp_host *h, struct scp_auth_mgr_snap **out);
  void (*auth_restore)(scp_host *h, struct scp_auth_mgr_snap *s);
  void (*auth_snap_free)(struct scp_auth_mgr_snap *s);
  /* auth, around create_contract: the deployer's frame (see
   * scp_auth_push_create) */
  int (*auth_create_frame)(scp_host *h, uint64_t deployer, const uint8_t addr[33],
                           const uint8_t salt[32], const uint64_t *ctor, uint32_t nctor,
                           const struct scp_executable *ex, bool *pushed);
  void (*auth_create_pop)(scp_host *h);
  /* a call into a native contract (the Stellar Asset Contract) */
  int (*native_call)(scp_host *h, const uint8_t id[32], const char *fn, const uint64_t *args,
                     uint32_t n, uint64_t *ret);
} scp_host_links;

/* scp_host_create with the links given (run/host_links.c). */
SCP_HIDDEN int scp_host_create_linked(scp_budget *b, const scp_host_opts *opts,
                                      const scp_host_links *links, scp_host **out);

/* ---- shared internals (host.c) --------------------------------------- */

/* Record a host error Error(type, code) with a message; returns SCP_ERR_HOST. */
SCP_HIDDEN int scp_host_err(scp_host *h, scp_err_type type, scp_err_code code,
                            const char *fmt, ...) SCP_PRINTF(4, 5);

/* Budget charge; on exhaustion records Error(Budget, ExceededLimit). */
SCP_HIDDEN int scp_host_charge(scp_host *h, scp_cost_type t, int64_t input);
SCP_HIDDEN int scp_host_charge_n(scp_host *h, scp_cost_type t, uint64_t n,
                                 int64_t input);

/* metered_clone.rs charge_heap_alloc / charge_shallow_copy: MemAlloc /
 * MemCpy with input n * size; and charge_bulk_init_cpy of a Vec<T>
 * (MemCpy(24) for the Vec, MemAlloc(n*size), MemCpy(n*size)). */
SCP_HIDDEN int scp_host_charge_alloc(scp_host *h, uint64_t n, uint64_t size);
SCP_HIDDEN int scp_host_charge_copy(scp_host *h, uint64_t n, uint64_t size);
SCP_HIDDEN int scp_host_charge_bulk_init(scp_host *h, uint64_t n, uint64_t size);

/* add_host_object: MemAlloc(64) for one HostObject, then append.  o's
 * heap parts are taken over (freed on failure).  *out = absolute Val. */
SCP_HIDDEN int scp_host_add_obj(scp_host *h, scp_hobj *o, uint64_t *out);

/* visit_obj_untyped: charge VisitObject, then look the absolute object up.
 * Errors as the reference: relative handle -> Error(Object, InternalError);
 * unknown -> Error(Value, InvalidInput). */
SCP_HIDDEN int scp_host_visit(scp_host *h, uint64_t v, const scp_hobj **out);

/* EnvBase::check_val_integrity: Error(Value, InvalidInput) for a bad Val;
 * an object is visited (VisitObject) and must match its tag. */
SCP_HIDDEN int scp_host_check_val(scp_host *h, uint64_t v);

/* Compare<Val> for Host (compare.rs): *ord = -1, 0, 1.  Objects go
 * through the checked Env::obj_cmp (visits + comparison charges). */
SCP_HIDDEN int scp_host_compare(scp_host *h, uint64_t a, uint64_t b, int *ord);
/* The body of obj_cmp (host.rs). */
SCP_HIDDEN int scp_host_obj_cmp(scp_host *h, uint64_t a, uint64_t b, int *ord);
/* Budget::with_limited_depth (limit 100, Error(Context, ExceededLimit)). */
SCP_HIDDEN int scp_host_depth_enter(scp_host *h);
SCP_HIDDEN void scp_host_depth_leave(scp_host *h);

/* Object lookup without charge (formatting, tests). NULL if unknown. */
SCP_HIDDEN const scp_hobj *scp_host_obj(const scp_host *h, uint64_t v);

/* Linear memory of the calling VM: checks the frame is a VM frame
 * (Error(WasmVm, InternalError) otherwise), charges MemCpy(len), then
 * bounds-checks (Error(WasmVm, IndexBounds)). */
SCP_HIDDEN int scp_host_mem_read(scp_host *h, uint32_t pos, uint32_t len,
                                 uint8_t *dst);
SCP_HIDDEN int scp_host_mem_write(scp_host *h, uint32_t pos, const uint8_t *src,
                                  uint32_t len);
SCP_HIDDEN bool scp_host_in_vm(const scp_host *h);
/* Vm::get_memory: Error(WasmVm, MissingValue) when the module exports no
 * `memory`; err_oob_linear_memory: Error(WasmVm, IndexBounds). */
SCP_HIDDEN int scp_host_mem_get(scp_host *h);
SCP_HIDDEN int scp_host_mem_oob(scp_host *h);
/* Argument / result types of host function id (SCP_VT_*). */
SCP_HIDDEN unsigned scp_hostfn_argtype(unsigned id, unsigned arg);
SCP_HIDDEN unsigned scp_hostfn_rettype(unsigned id);

/* EnvBase functions the reference's tests call directly (host.rs
 * `impl EnvBase for Host`); not host functions of env.json, so no
 * argument checks.  tag is SCP_TAG_BYTES_OBJ / _STRING_OBJ / _SYMBOL_OBJ. */
SCP_HIDDEN int scp_host_memobj_new_from_slice(scp_host *h, unsigned tag,
                                              const uint8_t *p, uint32_t len,
                                              uint64_t *out);
SCP_HIDDEN int scp_host_memobj_copy_to_slice(scp_host *h, uint64_t obj, uint32_t pos,
                                             uint8_t *dst, uint32_t len);
SCP_HIDDEN int scp_host_memobj_copy_from_slice(scp_host *h, uint64_t obj, uint32_t pos,
                                               const uint8_t *src, uint32_t len,
                                               uint64_t *out);
/* Every adjacent pair of keys of kv (key, value pairs) compares Less
 * (charged comparisons), else Error(Object, InvalidInput) "WHAT not in
 * order": the check of Map::from_map / the metered map constructors. */
SCP_HIDDEN int scp_host_check_keys_sorted(scp_host *h, const uint64_t *kv, uint32_t n,
                                          const char *what);
/* The map object adopts kv (malloc'd, freed on failure) once its keys
 * are checked in order. */
SCP_HIDDEN int scp_host_map_adopt_sorted(scp_host *h, uint64_t *kv, uint32_t n, uint64_t *ret);
SCP_HIDDEN int scp_host_map_from_pairs_nocap(scp_host *h, const uint64_t *kv, uint32_t n,
                                             uint64_t *out);
SCP_HIDDEN int scp_host_map_from_pairs(scp_host *h, const uint64_t *kv, uint32_t n,
                                       uint64_t *out);
SCP_HIDDEN int scp_host_vec_unpack_to_slice(scp_host *h, uint64_t vec, uint64_t *dst,
                                            uint32_t len);
SCP_HIDDEN int scp_host_vec_new_from_slice(scp_host *h, const uint64_t *vals,
                                           uint32_t n, uint64_t *out);

/* 256-bit integers (host_int.c): words most significant first; the
 * checked ethnum semantics, false on overflow / division by zero / a shift
 * of 256 or more.  n is the exponent or shift. */
typedef enum scp_int256_opcode {
  SCP_I256_ADD, SCP_I256_SUB, SCP_I256_MUL, SCP_I256_DIV, SCP_I256_REM_EUCLID,
  SCP_I256_POW, SCP_I256_SHL, SCP_I256_SHR
} scp_int256_opcode;
SCP_HIDDEN bool scp_int256_op(scp_int256_opcode op, bool sign, const uint64_t *a,
                              const uint64_t *b, uint32_t n, uint64_t *r);
SCP_HIDDEN bool scp_int256_fits_small(const uint64_t *a, bool sign);
SCP_HIDDEN void scp_int256_from_small(uint64_t v, bool sign, uint64_t *r);

/* ScVal XDR (host_xdr.c) with the reference's conversion and ValSer /
 * ValDeser charges.  *out is malloc'd. */
SCP_HIDDEN int scp_host_val_to_xdr(scp_host *h, uint64_t v, uint8_t **out, size_t *len);
SCP_HIDDEN int scp_host_val_from_xdr(scp_host *h, const uint8_t *p, size_t len, uint64_t *out);
/* The pieces: from_host_val's conversion charges alone (Val ->
 * ScVal, conversion.rs); the ScVal XDR image of v with no charge at all
 * (storage keeps ledger entries as such images); and to_host_val of an
 * XDR image without the ValDeser charge (storage reads, conversion.rs
 * to_valid_host_val). */
SCP_HIDDEN int scp_host_from_host_val_charges(scp_host *h, uint64_t v);
SCP_HIDDEN int scp_host_val_to_xdr_raw(scp_host *h, uint64_t v, uint8_t **out, size_t *len);
/* The write pass alone: the image with its ValSer charges, no
 * conversion charges (an ScVal already converted, written inside a larger
 * XDR value such as a signature payload). */
SCP_HIDDEN int scp_host_val_to_xdr_writes(scp_host *h, uint64_t v, uint8_t **out, size_t *len);
SCP_HIDDEN int scp_host_scval_to_val(scp_host *h, const uint8_t *p, size_t len, uint64_t *out);
/* The length of the one ScVal XDR image at p, read no further than len
 * bytes; 0 when it is malformed or does not fit.  For untrusted images
 * (authorization entries): scp_storage_scval_len trusts its input. */
SCP_HIDDEN size_t scp_host_scval_xdr_len(const uint8_t *p, size_t len);

/* PRNG (host_prng.c); no charges. */
SCP_HIDDEN void scp_prng_seed_raw(scp_prng *p, const uint8_t seed[32]);
SCP_HIDDEN void scp_prng_seed(scp_prng *p, const uint8_t seed[32]);
SCP_HIDDEN void scp_prng_fill(scp_prng *p, uint8_t *dest, size_t n);
SCP_HIDDEN uint64_t scp_prng_u64_inclusive(scp_prng *p, uint64_t lo, uint64_t hi);
SCP_HIDDEN void scp_prng_shuffle(scp_prng *p, uint64_t *v, uint32_t n);

/* Cryptographic primitives (host_crypto.c); no charges. */
SCP_HIDDEN bool scp_host_ed25519_key_ok(const uint8_t key[32]);
SCP_HIDDEN bool scp_host_ed25519_verify(const uint8_t key[32], const uint8_t *msg, size_t len,
                                        const uint8_t sig[64]);
/* 0 ok, 1 malformed (length, r or s out of [1, n)), 2 s above n/2. */
SCP_HIDDEN int scp_host_ecdsa_sig_check(const uint8_t *sig, size_t len, bool k1);
SCP_HIDDEN bool scp_host_secp256k1_recover(const uint8_t hash[32], const uint8_t sig[64],
                                           int recid, uint8_t out[65]);
/* 0 ok, 1 not an uncompressed P-256 point. */
SCP_HIDDEN int scp_host_p256_key_check(const uint8_t *key, size_t len);
SCP_HIDDEN bool scp_host_p256_verify(const uint8_t key[65], const uint8_t hash[32],
                                     const uint8_t sig[64]);

/* Ledger storage in recording-footprint mode (host_storage.c; storage.rs,
 * host/data_helper.rs, host/comparison.rs).  Every function charges what the
 * reference does.  scp_storage_key builds storage_key_from_val's key for the
 * current contract; the other functions take over nothing (keys are
 * copied).  Returns SCP_OK, SCP_ERR_BUDGET, SCP_ERR_HOST, SCP_ERR_NOMEM. */
SCP_HIDDEN int scp_storage_key(scp_host *h, uint64_t k, unsigned dur, scp_lkey *out);
SCP_HIDDEN void scp_lkey_free(scp_lkey *k);
SCP_HIDDEN int scp_storage_has(scp_host *h, const scp_lkey *k, bool *found);
/* get: *ent points into the map (valid until the next storage change);
 * Error(Storage, MissingValue) when absent. */
SCP_HIDDEN int scp_storage_get(scp_host *h, const scp_lkey *k, const scp_sentry **ent);
/* put: val (len bytes) copied; live_until as given. */
SCP_HIDDEN int scp_storage_put(scp_host *h, const scp_lkey *k, const uint8_t *val,
                               uint32_t len, uint32_t live_until);
SCP_HIDDEN int scp_storage_del(scp_host *h, const scp_lkey *k);
/* extend_ttl (v1: threshold/extend_to) and extend_ttl_v2. */
SCP_HIDDEN int scp_storage_extend_ttl(scp_host *h, const scp_lkey *k, uint32_t threshold,
                                      uint32_t extend_to);
SCP_HIDDEN int scp_storage_extend_ttl_v2(scp_host *h, const scp_lkey *k, uint32_t extend_to,
                                         uint32_t min_ext, uint32_t max_ext);
/* (tests) create_test_contract_frame (host/frame.rs, testutils): the
 * instance read a test's with_test_contract_frame makes before its frame
 * push, charged as call_contract reads an instance (the key's id clone,
 * the LedgerKey, the storage get, the instance's clone).  Only
 * test_replay.c calls it.  SCP_OK, or a host error (no instance). */
SCP_HIDDEN int scp_host_test_frame_instance(scp_host *h, const uint8_t id[32]);
/* Ledger state set up outside the profiled work, without charges.
 * in_map false: an entry of the snapshot source, which the storage reads
 * through to (and charges the map insert for) on first access, as the
 * reference's recording mode does; in_map true: an entry already in the
 * storage map and the footprint (read-write), as after writes earlier in
 * the same invocation. */
SCP_HIDDEN int scp_storage_seed(scp_host *h, const scp_lkey *k, const uint8_t *val,
                                uint32_t len, uint32_t live_until, bool in_map);
/* An entry in the storage map alone, uncharged, with no footprint access
 * (val NULL: a None entry); and the footprint emptied, as a soroban-sdk
 * test's Host::call does at depth 0 (invocation metering). */
SCP_HIDDEN int scp_storage_seed_map(scp_host *h, const scp_lkey *k, const uint8_t *val, uint32_t len,
                                    uint32_t live_until);
SCP_HIDDEN void scp_storage_footprint_clear(scp_host *h);
/* The code of Wasm hash is stored without cost inputs (h->v0_code). */
static inline bool scp_host_code_v0(const scp_host *h, const uint8_t hash[32]) {
  for (size_t i = 0; i < h->nv0_code; i++)
    if (!memcmp(h->v0_code[i], hash, 32)) return true;
  return false;
}
/* Two keys are the same ledger key (uncharged). */
SCP_HIDDEN bool scp_lkey_same(const scp_lkey *a, const scp_lkey *b);
/* (host_footprint.c) The declared footprint freed. */
SCP_HIDDEN void scp_storage_declared_free(scp_host *h);
/* The host error of an access outside the footprint (a write to a
 * read-only key included): Error(Storage, ExceededLimit). */
SCP_HIDDEN int scp_storage_footprint_error(scp_host *h, const scp_lkey *k);
/* The storage's MeteredOrdMaps, with the reference's charges
 * (host_storage.c): the StorageMap, the Footprint of recording mode, the
 * declared Footprint of enforcing mode, e2e_invoke's RestoredKeySet.
 * insert: *pos the entry (a new one zeroed apart from its key); get and
 * find as MeteredOrdMap::get and its search alone. */
typedef enum { SCP_SMAP_STORE, SCP_SMAP_FOOTPRINT, SCP_SMAP_DECLARED, SCP_SMAP_RESTORED } scp_smap;
SCP_HIDDEN int scp_storage_map_insert(scp_host *h, scp_smap which, const scp_lkey *key, size_t *pos);
SCP_HIDDEN int scp_storage_map_get(scp_host *h, scp_smap which, const scp_lkey *key, bool *found, size_t *pos);
SCP_HIDDEN int scp_storage_map_find(scp_host *h, scp_smap which, const scp_lkey *key, bool *found, size_t *pos);
/* Compare<LedgerKey> for Budget, charged. */
SCP_HIDDEN int scp_storage_lkey_cmp(scp_host *h, const scp_lkey *a, const scp_lkey *b, int *ord);
/* (host_enforce.c) Footprint::enforce_access over the declared map. */
SCP_HIDDEN int scp_storage_enforce_access(scp_host *h, const scp_lkey *k, bool rw);
/* (host_enforce.c) LazyLedgerEntry::decoded of store entry pos, the first
 * time: ValDeser of the encoded entry, the Rc; with key_check, as a
 * storage get does (try_get_full), the key made from the entry and
 * compared with the one asked for. */
SCP_HIDDEN int scp_storage_lazy_decode(scp_host *h, size_t pos, bool key_check);
/* (host_lazy.c) Recording mode's read-through of src into store entry e:
 * stored encoded (LazyLedgerEntry::from_encoded), its length src's own or
 * our encoding's, with a decoded memo of its own. */
SCP_HIDDEN int scp_storage_lazy_read_through(scp_host *h, scp_sentry *e, const scp_sentry *src);
/* (host_lazy.c) The decoded memo of lazy store entry e: recording mode's
 * read-through's, enforcing mode's declared key's; NULL when none. */
SCP_HIDDEN uint8_t *scp_storage_lazy_memo(scp_host *h, const scp_sentry *e);
/* (host_lazy.c) The XDR length of the LedgerEntry under key k holding
 * vallen bytes (ext v0, as our encoder writes it); the fee's entry sizes
 * are these too. */
SCP_HIDDEN uint32_t scp_storage_entry_xdr_len(const scp_host *h, const scp_lkey *k,
                                              uint32_t vallen);
/* (host_entry_xdr.c) The LedgerKey binary of k appended to out; the
 * LedgerEntry binary of x appended to e (last modified 0, ext v0; a code
 * entry with its module's cost inputs, ext v1, unless v0), its key's to
 * k when k is not NULL.  SCP_OK, or the Wasm's error for a code entry
 * whose module does not load, SCP_ERR_NOMEM; out of memory shows in the
 * buffers' oom too. */
SCP_HIDDEN void scp_storage_key_xdr(const scp_lkey *k, scp_buf *out);
SCP_HIDDEN int scp_storage_entry_xdr(const scp_sentry *x, bool v0, scp_buf *k, scp_buf *e, scp_error *err);
/* (host_lazy.c) The same for a code entry of len bytes: ContractCodeEntry
 * ext v1 with its cost inputs (as every upload since protocol 21 writes
 * it), or ext v0 when v0. */
SCP_HIDDEN uint32_t scp_storage_code_xdr_len(uint32_t len, bool v0);
/* (host_lazy.c) A ledger entry into the snapshot source (scp_storage_seed,
 * not in the map), with its encoded length (src->enc_len, 0 unknown). */
SCP_HIDDEN int scp_storage_seed_entry(scp_host *h, const scp_sentry *src);
/* The storage map at a frame push (RollbackPoint.storage; its charge is
 * in scp_host_charge_push_context), and the rollback when the frame fails:
 * scp_storage_rollback takes the copy over; otherwise free it. */
SCP_HIDDEN int scp_storage_snapshot(const scp_host *h, scp_sentry **out, size_t *n);
SCP_HIDDEN void scp_storage_snapshot_free(scp_sentry *s, size_t n);
SCP_HIDDEN void scp_storage_rollback(scp_host *h, scp_sentry *snap, size_t n);
/* (host_teardown.c) The events past the first nevents rolled back: out
 * of h->events, kept in h->failed_events (the reference marks them
 * FromFailedCall and still externalizes them). */
SCP_HIDDEN void scp_host_events_rollback(scp_host *h, size_t nevents);
/* A frame's end: with roll_back, the storage back to snap and the events
 * back to the first nevents (both taken at its push); else snap freed. */
SCP_HIDDEN void scp_storage_frame_end(scp_host *h, bool roll_back, scp_sentry *snap, size_t nsnap,
                                      size_t nevents);
/* Storage::is_key_live_in_snapshot (uncharged). */
SCP_HIDDEN bool scp_storage_live_in_snapshot(const scp_host *h, const scp_lkey *k);
/* k's entry in the snapshot source (NULL: none), read without charges. */
SCP_HIDDEN const scp_sentry *scp_storage_snapshot_entry(const scp_host *h, const scp_lkey *k);
SCP_HIDDEN void scp_storage_free(scp_host *h);
/* LedgerEntry::metered_clone charges; ScVal::charge_for_substructure of
 * an XDR image. */
SCP_HIDDEN int scp_storage_clone_entry_charges(scp_host *h, const scp_sentry *e);
SCP_HIDDEN int scp_storage_value_substructure(scp_host *h, const uint8_t *scval);
/* The storage map's part of a ContractInstance image's clone (none for a
 * map-less instance). */
/* Compare<ScVal> for Budget over two ScVal XDR images. */
SCP_HIDDEN int scp_storage_scval_cmp(scp_host *h, const uint8_t *a, const uint8_t *b, int *ord);
SCP_HIDDEN int scp_storage_instance_substructure(scp_host *h, const uint8_t *img, uint32_t len);
/* The length of the ScVal XDR image at p (a well-formed image). */
SCP_HIDDEN size_t scp_storage_scval_len(const uint8_t *p);
/* The temporary/persistent halves of the *_contract_data host functions
 * (dur = SCP_DUR_*); extend: p = {threshold, extend_to} or, v2, {extend_to,
 * min_extension, max_extension}. */
SCP_HIDDEN int scp_storage_put_contract_data(scp_host *h, uint64_t k, uint64_t v, unsigned dur);
SCP_HIDDEN int scp_storage_has_contract_data(scp_host *h, uint64_t k, unsigned dur, bool *found);
SCP_HIDDEN int scp_storage_get_contract_data(scp_host *h, uint64_t k, unsigned dur, uint64_t *out);
SCP_HIDDEN int scp_storage_del_contract_data(scp_host *h, uint64_t k, unsigned dur);
SCP_HIDDEN int scp_storage_extend_contract_data(scp_host *h, uint64_t k, unsigned dur, bool v2,
                                                const uint32_t *p);

/* Strkey of an address in the host's encoding (kind byte 0 account / 1
 * contract, then 32 bytes): "G..." / "C...", NUL-terminated. */
SCP_HIDDEN void scp_host_address_strkey(const uint8_t *addr, char out[57]);
/* Strkeys are read and written by xdr/scp_xdr.h's codec (version bytes
 * SCP_STRKEY_*, scp_xdr_strkey_raw). */
/* An Address or MuxedAddress object's strkey (G..., C..., M...), no
 * charge; its length. */
SCP_HIDDEN size_t scp_host_addr_obj_strkey(const scp_hobj *o, char out[80]);


#endif
